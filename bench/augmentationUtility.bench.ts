/**
 * `npm run bench -- augmentationUtility`: is a `veil augment` run useful? (README "Augmenting a
 * thin public set", docs/sga.md.) On both classification samples, a THIN public split — 3 public
 * records per label, drawn afresh each run — is augmented with M = 20 examples written as the
 * job writes them (augmentSample.ts: the job's seeds, writer and defaults, the reference learner),
 * and the augmented public split is then used as the app uses a public split with the reference
 * learner, measured by the utility check of bench/sampleUtility.ts (balanced accuracy on 200
 * held-out records): the dataset's domain learner is built from it, and with that learner
 *  - DP prompt: a default DP synthesis job at ε = 4 (synth.start's defaults) on the private split;
 *  - public demos: a prompt of public records of the DP prompt's labels, drawn from the public split;
 *  - zero-shot: no demonstrations (the domain learner's background alone).
 * Rows (what the public split holds; ε is the augmentation's, δ the default for N units):
 *  - thin alone: the thin split, no augmentation (nothing spent: the ε = 0 baseline of the split);
 *  - ε = 0, uniform seeds: M examples written from 2^depth thin records drawn uniformly — no
 *    private record chooses the seeds, so it isolates what writing examples adds without the DP
 *    seed choice (the written-again check, as in the job, still compares with every text of the
 *    sample, private included: outside ε, the certificate's mechanism);
 *  - ε = 0.25 … 2: the job (DPM seeds at ε);
 *  - ε = ∞, exact clustering: the same seeds from the clustering without noise (not private);
 *  - thin + M real: M further real public records of the sample instead of generated ones (what
 *    M real in-domain examples would give: a reference, not a mechanism).
 * Runs: RUNS (env VEIL_BENCH_AUGMENT_RUNS, default 4); run r uses the same thin split and the
 * same measuring stream in every row (paired), and a seeded stream per row for the seeds and the
 * writing (allowSeededOnPrivatePath: a non-private experiment, not a release). Mean, sample
 * standard deviation, min and max over runs.
 */
import { allowSeededOnPrivatePath } from '../core/random/privatePathRandom';
import { seededRandom } from '../core/random/seededRandom';
import { sampleWithoutReplacement } from '../core/random/uniform';
import type { RandomSource } from '../core/random/randomSource';
import type { LanguageModel } from '../core/model/languageModel';
import type { NewRecord } from '../electron/shared/api/vault';
import { loadReferenceLearner } from '../electron/services/model/referenceResources';
import { augmentationInputs, augmentThin, publicBeyond, thinPublicSplit, type AugmentationInputs, type SeedRule } from './augmentSample';
import { measureSample, sampleLearner, sampleSetup, type SampleName, type SampleSetup } from './sampleUtility';
import { spread } from './stats';

const RUNS = Math.max(1, Number(process.env.VEIL_BENCH_AUGMENT_RUNS ?? 4));
const EXAMPLES = 20;
const PER_LABEL = 3;
const EPSILONS = [0.25, 0.5, 1, 2];
const SAMPLES: SampleName[] = ['spam', 'clinic'];

interface Added {
  records: NewRecord[];
  seeds?: number;
  fallback?: boolean;
}
interface RowInput {
  thin: SampleSetup;
  full: SampleSetup;
  inputs: AugmentationInputs;
  /** The active model (the general reference learner): embeddings, and the writer's domain learner. */
  model: LanguageModel;
  random: RandomSource;
}
type Row = (input: RowInput) => Promise<Added>;

const augmentBy = (rule: SeedRule): Row => (i) => augmentThin(i.thin, i.inputs, i.model, rule, EXAMPLES, i.random);
const THIN_ALONE = 'thin alone (no augmentation)';
const ROWS: [string, Row][] = [
  [THIN_ALONE, async () => ({ records: [] })],
  ['ε = 0, uniform seeds', augmentBy({ kind: 'uniform' })],
  ...EPSILONS.map((epsilon): [string, Row] => [`ε = ${epsilon}`, augmentBy({ kind: 'dpm', epsilon })]),
  ['ε = ∞, exact clustering (not private)', augmentBy({ kind: 'exact' })],
  [`thin + ${EXAMPLES} real public records`, async (i) => ({ records: sampleWithoutReplacement(i.random, publicBeyond(i.full, i.thin), EXAMPLES) })],
];

interface Measured {
  dpPrompt: number;
  publicDemos: number;
  zeroShot: number;
  added: number;
  labelled: number;
  seeds: number | null;
  fallback: boolean;
  /** The first generated text, cut (what the writer writes), if any. */
  example?: string;
}

const seeded = (label: string) => allowSeededOnPrivatePath(seededRandom(`veil.bench.augmentationUtility/${label}`), 'non-private experiment');
const round = (x: number) => +x.toFixed(3);
const stats = (values: number[]) => Object.fromEntries(Object.entries(spread(values)).map(([k, v]) => [k, round(v)]));

/** Mean, spread and the augmentation's own counts of one row's runs; `baseline`: the same runs of the thin split alone (paired differences). */
export function summariseRow(runs: readonly Measured[], baseline: readonly Measured[] = []) {
  const seeds = runs.map((r) => r.seeds).filter((s): s is number => s !== null);
  const minus = (pick: (m: Measured) => number) => stats(runs.map((r, i) => pick(r) - pick(baseline[i])));
  return {
    balancedAccuracy: { dpPrompt: stats(runs.map((r) => r.dpPrompt)), publicDemos: stats(runs.map((r) => r.publicDemos)), zeroShot: stats(runs.map((r) => r.zeroShot)) },
    ...(baseline.length === runs.length && runs !== baseline ? { minusThinAlone: { dpPrompt: minus((m) => m.dpPrompt), publicDemos: minus((m) => m.publicDemos) } } : {}),
    perRun: { dpPrompt: runs.map((r) => round(r.dpPrompt)), publicDemos: runs.map((r) => round(r.publicDemos)) },
    added: stats(runs.map((r) => r.added)).mean,
    labelled: stats(runs.map((r) => r.labelled)).mean,
    ...(seeds.length > 0 ? { seeds: stats(seeds).mean, fallbacks: runs.filter((r) => r.fallback).length } : {}),
    ...(runs[0].example !== undefined ? { exampleWritten: runs[0].example } : {}),
  };
}

async function measureSampleRows(name: SampleName): Promise<Record<string, ReturnType<typeof summariseRow>>> {
  const full = sampleSetup(name);
  const model = await loadReferenceLearner();
  const inputs = await augmentationInputs(full, model);
  const runs = new Map<string, Measured[]>(ROWS.map(([row]) => [row, []]));
  for (let run = 0; run < RUNS; run++) {
    process.stderr.write(`augmentationUtility: ${name}, run ${run + 1} of ${RUNS}…\n`);
    const thin = thinPublicSplit(full, PER_LABEL, seeded(`${name}/thin/${run}`));
    for (const [row, augment] of ROWS) {
      const added = await augment({ thin, full, inputs, model, random: seeded(`${name}/${row}/${run}`) });
      const setup = { ...thin, publicRecords: [...thin.publicRecords, ...added.records] };
      const result = await measureSample(setup, await sampleLearner(setup), seeded(`${name}/measure/${run}`));
      runs.get(row)!.push({
        dpPrompt: result.balanced.synthetic, publicDemos: result.balanced.realPublic, zeroShot: result.balanced.zeroShot,
        added: added.records.length, labelled: added.records.filter((r) => r.label !== undefined).length, seeds: added.seeds ?? null, fallback: added.fallback ?? false,
        ...(added.seeds !== undefined && added.records.length > 0 ? { example: added.records[0].text.slice(0, 160) } : {}),
      });
    }
  }
  return Object.fromEntries([...runs].map(([row, measured]) => [row, summariseRow(measured, runs.get(THIN_ALONE))]));
}

export async function run(): Promise<object> {
  const out: Record<string, object> = {
    setup: {
      model: 'reference learner (domain learner of the public split)', thinPublicSplit: `${PER_LABEL} public records per label, drawn per run`, examples: EXAMPLES,
      augmentation: 'veil augment defaults but M (depth 2, 200 tokens per example, δ default)', downstream: 'utility check of bench/sampleUtility.ts: 200 held-out records, balanced accuracy; DP prompt = default synthesis at ε = 4',
      runs: RUNS, seeds: 'fixed (veil.bench.augmentationUtility/…)',
    },
  };
  for (const name of SAMPLES) out[name] = await measureSampleRows(name);
  return out;
}
