/**
 * Augmenting a sample's thin public set as `veil augment` does (docs/sga.md), in memory, for the
 * utility bench (augmentationUtility.bench.ts). The steps are the job's own functions: one point
 * per privacy unit of the whole private split (unitPoint of the active model's embeddings: the
 * general reference learner), the DPM release at ρ calibrated to ε (priceAugmentation, δ the
 * default for N units, no budget), the seeds and the writer (exampleWriter.ts: the domain learner
 * of the thin public split writes from the seeds alone; a text the dataset holds in any split is
 * written again). What differs: no vault or ledger, and the randomness is the caller's (seeded).
 */
import { augmentationSeeds, unitPoint } from '../core/icl/augmentation/augmentationSeeds';
import { clusterAnswers, DEFAULT_SGA_SETTINGS, sgaCandidates } from '../core/icl/answering/sga/semanticGroups';
import type { LanguageModel } from '../core/model/languageModel';
import type { RandomSource } from '../core/random/randomSource';
import { sampleWithoutReplacement } from '../core/random/uniform';
import { augmentRequestSchema } from '../electron/shared/api/augmentation';
import type { NewRecord } from '../electron/shared/api/vault';
import { priceAugmentation } from '../electron/services/augmentation/augmentationPricing';
import { augmentationInstruction, augmentationTags, exampleWriter, seedExamples } from '../electron/services/augmentation/exampleWriter';
import type { LabelledExample } from '../electron/services/synthesis/synthesisSource';
import { contentHash } from '../electron/services/vault/normalise';
import { SAMPLE_DATASETS } from '../electron/services/vault/sampleDataset';
import { privacyUnits, publicOnlySource, type SampleSetup } from './sampleUtility';

/**
 * Where the augmentation's seeds come from: `uniform` — 2^depth public examples drawn uniformly
 * (ε = 0: no private record chooses them); `dpm` — the job's DPM release at ε; `exact` — the same
 * clustering without noise (ε = ∞, not private). Whatever the rule, the writer's written-again
 * check compares with every text of the sample, private included, as in the job (`holds`).
 */
export type SeedRule = { kind: 'uniform' } | { kind: 'dpm'; epsilon: number } | { kind: 'exact' };

/** The sample with a thin public split: `perLabel` public records of each label, drawn with `random`. */
export function thinPublicSplit(setup: SampleSetup, perLabel: number, random: RandomSource): SampleSetup {
  const publicRecords = setup.dataset.labels.flatMap((label) => sampleWithoutReplacement(random, setup.publicRecords.filter((r) => r.label === label), perLabel));
  return { ...setup, publicRecords };
}

/** The public records of the sample not in the thin split (a source of real in-domain examples, for the ceiling). */
export const publicBeyond = (full: SampleSetup, thin: SampleSetup): NewRecord[] => full.publicRecords.filter((r) => !thin.publicRecords.includes(r));

/** What a sample's augmentations share: the private units' points and the texts the dataset holds (fixed per sample). */
export interface AugmentationInputs {
  points: Float64Array[];
  /** whether the sample holds a text of this content hash */
  holds: (hash: string) => boolean;
}

export async function augmentationInputs(setup: SampleSetup, model: LanguageModel): Promise<AugmentationInputs> {
  const units = privacyUnits(setup.privateRecords, setup.dataset.privacyUnit === 'subject', setup.subjectCap);
  const flat = await model.embed(units.flatMap((u) => u.map((r) => r.text)));
  let at = 0;
  const points = units.map((u) => unitPoint(flat.slice(at, (at += u.length))));
  const held = new Set(SAMPLE_DATASETS[setup.name].records().map((r) => contentHash(r.text)));
  return { points, holds: (hash) => held.has(hash) };
}

export interface Augmentation {
  records: NewRecord[];
  seeds: number;
  fallback: boolean;
}

/** M examples written from the thin split's seeds chosen by `rule`, as the job writes them. */
export async function augmentThin(thin: SampleSetup, inputs: AugmentationInputs, model: LanguageModel, rule: SeedRule, examples: number, random: RandomSource): Promise<Augmentation> {
  const { dataset } = thin;
  const request = augmentRequestSchema.parse({ dataset: dataset.name, examples, ...(rule.kind === 'dpm' ? { epsilon: rule.epsilon } : {}) });
  const publicExamples: LabelledExample[] = thin.publicRecords.map((r) => ({ text: r.text, label: r.label ?? null, output: r.output ?? null }));
  const publicEmbeddings = await model.embed(publicExamples.map((e) => e.text));
  const settings = { ...DEFAULT_SGA_SETTINGS, depth: request.depth };
  const k = 2 ** request.depth;
  const released =
    rule.kind === 'uniform'
      ? sampleWithoutReplacement(random, publicExamples.map((_, i) => i), Math.min(k, publicExamples.length))
      : rule.kind === 'exact'
        ? sgaCandidates(clusterAnswers(inputs.points, publicEmbeddings, settings, null, random), k)
        : augmentationSeeds(inputs.points, publicEmbeddings, priceAugmentation(request, inputs.points.length, null, publicExamples.length).rho, random, settings).seeds;
  const { seeds, fallback } = seedExamples(dataset, publicExamples, released, request.depth);
  const write = await exampleWriter({
    model, source: publicOnlySource(dataset, publicExamples), dataset, instruction: augmentationInstruction(dataset, SAMPLE_DATASETS[thin.name].fields.description),
    seeds, maxTokens: request.maxTokens, tags: augmentationTags(0), holds: async (hash) => inputs.holds(hash), random,
  });
  const records: NewRecord[] = [];
  for (let i = 0; i < examples; i++) {
    const record = await write(i);
    if (record) records.push(record);
  }
  return { records, seeds: seeds.length, fallback };
}
