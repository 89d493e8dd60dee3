/**
 * "Preview on public data" (issue 17): the same synthesis job — same settings, same
 * calibrated noise and aggregator — run on the dataset's PUBLIC split treated as if it were
 * private, then the utility check of the preview's demonstrations. Nothing is released or
 * charged (no ledger entry): the inputs are public. The private split is never sampled: the
 * pools here are built from public records only; the noise is calibrated with the private
 * pool sizes as the price shown to the analyst is (counts, no record).
 */
import { inMemoryPool, type PoolRecord, type PrivatePool } from '../../../core/icl/privatePool';
import { synthesizeDemonstrations } from '../../../core/icl/synthesize';
import { samplingRate } from '../../../core/icl/demonstration';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import type { SynthesisPreview } from '../../shared/api/synthesisPreview';
import type { JobContext } from '../jobs/jobManager';
import { RefusalError } from '../refusalError';
import type { PricedJob } from './synthesisPricing';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from './synthesisSource';
import { evaluateUtility } from './utilityCheck';

/** Public records a preview pool is built from, at most (a uniform sample beyond). */
const PUBLIC_POOL_LIMIT = 50_000;

/** The public records of one label (or all, with an output for generation tasks), as a pool of one unit per record. */
function publicPool(records: readonly LabelledExample[], dataset: SynthesisDataset, label: string | undefined): PrivatePool {
  const chosen: PoolRecord[] = records
    .filter((r) => (dataset.task === 'classification' ? r.label === label : true))
    .map((r) => (dataset.task === 'generation' && r.output !== null ? { text: r.text, output: r.output } : { text: r.text }));
  return inMemoryPool(chosen);
}

export async function previewOnPublic(args: {
  priced: PricedJob;
  dataset: SynthesisDataset;
  source: SynthesisSource;
  model: LanguageModel;
  job: JobContext;
  limit: number;
  /** Zero-shot scores shared by the previews of one curve (evaluateUtility). */
  zeroShots?: Map<string, Promise<number[]>>;
}): Promise<SynthesisPreview> {
  const { priced, dataset, source, model, job } = args;
  const records = await source.examples(dataset, 'public', PUBLIC_POOL_LIMIT);
  const pools = priced.pools.map((plan) => {
    const pool = publicPool(records, dataset, plan.label);
    if (pool.units === 0) throw new RefusalError(`the public split of ${plan.label === undefined ? `"${dataset.name}"` : `label "${plan.label}"`} is empty: nothing to preview on`);
    return { plan: { ...plan, units: pool.units }, pool };
  });
  const total = priced.pools.reduce((n, p) => n + p.demonstrations, 0);
  const demonstrations = await synthesizeDemonstrations({
    model, template: priced.template, pools, shape: priced.shape, aggregator: priced.aggregator, random: cryptoRandom, signal: job.signal,
    onProgress: (p) => job.progress('preview: tokens', p.stepsDone, p.stepsMax, `demonstration ${Math.min(p.demonstrationsDone + 1, total)} of ${total}`),
  });
  job.throwIfCancelled();
  const document = { demonstrations, certificate: { parameters: { template: priced.template } } };
  const utility = await evaluateUtility({ model, dataset, document, source, limit: args.limit, job, zeroShots: args.zeroShots });
  return {
    dataset: dataset.name,
    request: priced.plan.request,
    noise: priced.plan.noise,
    epsilon: priced.plan.epsilon.upper,
    delta: priced.plan.delta,
    pools: pools.map(({ plan }) => ({ label: plan.label, units: plan.units, q: samplingRate(priced.shape, plan.units) })),
    demonstrations,
    utility,
  };
}
