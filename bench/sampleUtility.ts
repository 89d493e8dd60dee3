/**
 * The utility table of the sample datasets (README "Utility of DP prompts"): a default DP
 * synthesis job (synth.start's defaults, ε = 4, δ default) on the sample's private split,
 * then the utility check on 200 held-out records — DP prompt, zero-shot, real public
 * demonstrations, always the majority label. Shared by `npm run bench -- utility` (CSPRNG,
 * median of 5 runs) and the regression guard test (fixed seeds). Records as the vault would
 * hold them (SAMPLE_DATASETS), pools in memory (one per label, subjects grouped and capped).
 * The model is the one the app would use for the dataset (domainModel).
 */
import { balancedScore, promptScores, type HeldOutExample, type UtilityRequest } from '../core/icl/utility';
import type { PoolRecord, PrivatePool } from '../core/icl/privatePool';
import { synthesizeDemonstrations } from '../core/icl/synthesize';
import type { Demonstration } from '../core/icl/prompts';
import type { LanguageModel } from '../core/model/languageModel';
import { poissonSampleTeachers } from '../core/mechanisms/poissonSampling';
import type { RandomSource } from '../core/random/randomSource';
import { seededRandom } from '../core/random/seededRandom';
import { sampleWithoutReplacement } from '../core/random/uniform';
import { synthesisRequestSchema } from '../electron/shared/api/synthesis';
import type { NewRecord } from '../electron/shared/api/vault';
import { priceSynthesis, templateFor } from '../electron/services/synthesis/synthesisPricing';
import { domainLearner } from '../electron/services/synthesis/domainLearner';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from '../electron/services/synthesis/synthesisSource';
import { SAMPLE_DATASETS } from '../electron/services/vault/sampleDataset';

export type SampleName = keyof typeof SAMPLE_DATASETS;

export interface SampleUtility {
  dataset: SampleName;
  examples: number;
  demonstrations: Demonstration[];
  accuracy: { synthetic: number; zeroShot: number; realPublic: number; majority: number };
  balanced: { synthetic: number; zeroShot: number; realPublic: number; majority: number };
}

export interface SampleSetup {
  name: SampleName;
  dataset: SynthesisDataset;
  subjectCap: number;
  privateRecords: NewRecord[];
  publicRecords: NewRecord[];
  heldOut: HeldOutExample[];
}

const HELD_OUT = 200;

export function sampleSetup(name: SampleName): SampleSetup {
  const sample = SAMPLE_DATASETS[name];
  const records = sample.records();
  const dataset: SynthesisDataset = {
    id: 1, name: sample.name, createdAt: '2026-01-01T00:00:00.000Z', task: 'classification',
    labels: [...(sample.fields.labels ?? [])], privacyUnit: sample.fields.privacyUnit,
  };
  const held = records.filter((r) => r.split === 'held-out' && r.label !== undefined);
  const heldOut = sampleWithoutReplacement(seededRandom(`veil.bench.utility/${name}`), held, HELD_OUT).map((r) => ({ text: r.text, target: r.label! }));
  return {
    name, dataset, subjectCap: sample.fields.subjectCap, heldOut,
    privateRecords: records.filter((r) => r.split === 'private'),
    publicRecords: records.filter((r) => r.split === 'public'),
  };
}

/** The privacy units of some records: each record, or each subject holding its first `cap` records. */
export function privacyUnits(records: readonly NewRecord[], bySubject: boolean, cap: number): PoolRecord[][] {
  const units: PoolRecord[][] = [];
  const index = new Map<string, PoolRecord[]>();
  for (const r of records) {
    const unit = bySubject && r.subject !== undefined ? index.get(r.subject) : undefined;
    if (unit) {
      if (unit.length < cap) unit.push({ text: r.text });
    } else {
      const fresh = [{ text: r.text }];
      units.push(fresh);
      if (bySubject && r.subject !== undefined) index.set(r.subject, fresh);
    }
  }
  return units;
}

/** One label's private pool (its units: privacyUnits). */
function memoryPool(records: readonly NewRecord[], bySubject: boolean, cap: number): PrivatePool {
  const units = privacyUnits(records, bySubject, cap);
  return {
    units: units.length,
    sampleTeachers: async (q, teachers, random) => poissonSampleTeachers(units.length, q, teachers, random).map((g) => g.flatMap((i) => units[i])),
  };
}

/** A synthesis source of these public examples alone: no private pool, no held-out split (what the domain learner and the augmentation writer read). */
export function publicOnlySource(dataset: SynthesisDataset, publicExamples: readonly LabelledExample[]): SynthesisSource {
  return {
    dataset: async () => dataset,
    pool: async () => {
      throw new Error('a public-only source reads no private pool');
    },
    examples: async (_dataset, split) => (split === 'public' ? [...publicExamples] : []),
  };
}

/** The model the app would use for this sample with the reference learner active (synthesis/domainLearner.ts). */
export async function sampleLearner(setup: SampleSetup): Promise<LanguageModel> {
  const source = publicOnlySource(setup.dataset, setup.publicRecords.map((r) => ({ text: r.text, label: r.label ?? null, output: null })));
  const template = templateFor(setup.dataset, synthesisRequestSchema.parse({ dataset: setup.dataset.name, epsilon: 4 }));
  return domainLearner(source, setup.dataset, template);
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One default job at `epsilon` and its utility check. */
export async function measureSample(setup: SampleSetup, model: LanguageModel, random: RandomSource, settings: Record<string, unknown> = {}): Promise<SampleUtility> {
  const { dataset } = setup;
  const request = synthesisRequestSchema.parse({ dataset: dataset.name, epsilon: 4, ...settings });
  const bySubject = dataset.privacyUnit === 'subject';
  const pools = new Map(dataset.labels.map((label) => [label, memoryPool(setup.privateRecords.filter((r) => r.label === label), bySubject, setup.subjectCap)]));
  const poolUnits = new Map([...pools].map(([label, pool]) => [label as string | undefined, pool.units]));
  const units = memoryPool(setup.privateRecords, bySubject, setup.subjectCap).units;
  const priced = priceSynthesis(request, dataset, poolUnits, null, units);
  const demonstrations = await synthesizeDemonstrations({
    model, template: priced.template, shape: priced.shape, aggregator: priced.aggregator, random,
    pools: priced.pools.map((plan) => ({ plan, pool: pools.get(plan.label!)! })),
  });
  const utility: UtilityRequest = { model, template: priced.template, task: { kind: 'classification', labels: dataset.labels }, examples: setup.heldOut };
  const real = demonstrations.map((d) => {
    const candidates = setup.publicRecords.filter((r) => r.label === d.label);
    return { text: candidates[Math.floor(random.nextFloat() * candidates.length)].text, label: d.label };
  });
  const synthetic = await promptScores(utility, demonstrations);
  const zeroShot = await promptScores(utility, []);
  const realPublic = await promptScores(utility, real);
  const counts = new Map<string, number>();
  for (const e of setup.heldOut) counts.set(e.target, (counts.get(e.target) ?? 0) + 1);
  const majority = Math.max(...counts.values()) / setup.heldOut.length;
  const balanced = (s: number[]) => balancedScore(s, setup.heldOut);
  return {
    dataset: setup.name,
    examples: setup.heldOut.length,
    demonstrations,
    accuracy: { synthetic: mean(synthetic), zeroShot: mean(zeroShot), realPublic: mean(realPublic), majority },
    balanced: { synthetic: balanced(synthetic), zeroShot: balanced(zeroShot), realPublic: balanced(realPublic), majority: 1 / counts.size },
  };
}
