/**
 * The curve of utility against ε (issue 17, item 4): "Preview on public data"
 * (publicPreview.ts) at each of a few ε — the same settings, the noise calibrated for each
 * ε as the job would be — so an analyst sees what a larger ε buys before spending any.
 * Like the preview it charges nothing and reads no private record: every point's
 * demonstrations come from the PUBLIC split treated as private, and the utility check reads
 * held-out and public records. Points are computed in increasing ε, one preview at a time,
 * with progress per point and cancellation between (and within) them.
 *
 * What does not depend on ε is done once for the whole curve: the public and held-out
 * examples are read once (a source's examples are the same at every call), and the
 * zero-shot scores of the utility check are computed once.
 */
import type { LanguageModel } from '../../../core/model/languageModel';
import type { PreviewCurve } from '../../shared/api/synthesisPreview';
import type { JobContext } from '../jobs/jobManager';
import { previewOnPublic } from './publicPreview';
import type { PricedJob } from './synthesisPricing';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from './synthesisSource';

/** `source` with each (dataset, split, limit, filter) sample of examples read once. */
function readOnce(source: SynthesisSource): SynthesisSource {
  const read = new Map<string, Promise<LabelledExample[]>>();
  return {
    dataset: (name) => source.dataset(name),
    pool: (dataset, label) => source.pool(dataset, label),
    examples: (dataset, split, limit, filter) => {
      const key = JSON.stringify([dataset.id, split, limit, filter ?? null]);
      const examples = read.get(key) ?? source.examples(dataset, split, limit, filter);
      read.set(key, examples);
      return examples;
    },
  };
}

export async function previewCurve(args: {
  /** The job priced at ε (exact pool sizes, as synth.plan prices it). */
  priceAt: (epsilon: number) => PricedJob;
  epsilons: readonly number[];
  dataset: SynthesisDataset;
  source: SynthesisSource;
  model: LanguageModel;
  job: JobContext;
  limit: number;
}): Promise<PreviewCurve> {
  const epsilons = [...new Set(args.epsilons)].sort((a, b) => a - b);
  const points: PreviewCurve['points'] = [];
  const source = readOnce(args.source);
  const zeroShots = new Map<string, Promise<number[]>>();
  for (const [i, epsilon] of epsilons.entries()) {
    args.job.throwIfCancelled();
    const priced = args.priceAt(epsilon);
    // Each point reports its own stages, prefixed by where it is on the curve.
    const job: JobContext = {
      id: args.job.id,
      signal: args.job.signal,
      progress: (stage, done, total, message) => args.job.progress(`ε = ${epsilon} (${i + 1} of ${epsilons.length}): ${stage}`, done, total, message),
      throwIfCancelled: () => args.job.throwIfCancelled(),
    };
    const preview = await previewOnPublic({ priced, dataset: args.dataset, source, model: args.model, job, limit: args.limit, zeroShots });
    const u = preview.utility;
    points.push({
      epsilon,
      noise: preview.noise,
      synthetic: u.balanced?.synthetic ?? u.synthetic,
      zeroShot: u.balanced?.zeroShot ?? u.zeroShot,
      realPublic: u.balanced ? u.balanced.realPublic : u.realPublic,
    });
  }
  return {
    dataset: args.dataset.name,
    metric: args.dataset.task === 'classification' ? 'balanced accuracy' : 'ROUGE-L',
    // A constant answer's balanced accuracy is 1/labels whatever the label: the bar every point must clear.
    constant: args.dataset.task === 'classification' && args.dataset.labels.length > 0 ? 1 / args.dataset.labels.length : null,
    points,
  };
}
