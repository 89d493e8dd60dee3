/**
 * Utility check of a released DP prompt with the active model on the held-out split:
 * the synthetic prompt against zero-shot and against randomly chosen real demonstrations
 * from the PUBLIC split (a non-private reference, shown as such). Reads no private record.
 */
import type { DpPromptExport } from '../../../core/export/dpPromptFormat';
import type { Demonstration, PromptTemplate } from '../../../core/icl/prompts';
import { balancedScore, promptScores, type HeldOutExample, type UtilityRequest } from '../../../core/icl/utility';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import { uniformInt } from '../../../core/random/uniform';
import type { SynthesisRunDto } from '../../shared/api/synthesis';
import type { JobContext } from '../jobs/jobManager';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from './synthesisSource';
import { RefusalError } from '../refusalError';

const GENERATION_MAX_TOKENS = 64;
const PUBLIC_POOL_LIMIT = 5000;

/**
 * Real public demonstrations shaped like the synthetic ones, drawn at random: the same
 * labels (classification), or records with a reference output (generation).
 */
function realDemonstrations(publicExamples: LabelledExample[], like: DpPromptExport['demonstrations']) {
  const chosen: Demonstration[] = [];
  for (const demo of like) {
    const candidates = publicExamples.filter((e) => (demo.label === undefined ? demo.output === undefined || e.output !== null : e.label === demo.label));
    if (candidates.length === 0) return null;
    const pick = candidates[uniformInt(cryptoRandom, candidates.length)];
    chosen.push(demo.output === undefined ? { text: pick.text, label: demo.label } : { text: pick.text, output: pick.output! });
  }
  return chosen;
}

function mostCommon(values: readonly string[]): { label: string; count: number } {
  const [label, count] = Object.entries(countBy(values)).reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return { label, count };
}

const countBy = (values: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const v of [...values].sort()) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
};

/** The zero-shot scores, computed once per template when `shared` is given. */
function zeroShotScores(shared: Map<string, Promise<number[]>> | undefined, template: PromptTemplate, compute: () => Promise<number[]>): Promise<number[]> {
  if (!shared) return compute();
  const key = JSON.stringify(template);
  const scores = shared.get(key) ?? compute();
  shared.set(key, scores);
  scores.catch(() => shared.get(key) === scores && shared.delete(key));
  return scores;
}

export async function evaluateUtility(args: {
  model: LanguageModel;
  dataset: SynthesisDataset;
  /** The released document, or a preview's demonstrations with their template (publicPreview.ts). */
  document: Pick<DpPromptExport, 'demonstrations'> & { certificate: Pick<DpPromptExport['certificate'], 'parameters'> };
  source: SynthesisSource;
  limit: number;
  job: JobContext;
  /**
   * Zero-shot scores by template, shared by several checks on the same model and examples (a
   * preview curve's points): zero-shot does not depend on the prompt under test.
   */
  zeroShots?: Map<string, Promise<number[]>>;
}): Promise<NonNullable<SynthesisRunDto['utility']>> {
  const { model, dataset, document, job } = args;
  const template = document.certificate.parameters.template as PromptTemplate;
  const heldOut = await args.source.examples(dataset, 'held-out', args.limit);
  const examples: HeldOutExample[] = heldOut.flatMap((e) => {
    const target = dataset.task === 'classification' ? e.label : e.output;
    return target === null ? [] : [{ text: e.text, target }];
  });
  if (examples.length === 0) throw new RefusalError(`dataset "${dataset.name}" has no labelled held-out examples to evaluate on`);
  const real = realDemonstrations(await args.source.examples(dataset, 'public', PUBLIC_POOL_LIMIT), document.demonstrations);
  const runs = real ? 3 : 2;
  let stage = 0;
  const request = (name: string): UtilityRequest => ({
    model,
    template,
    task: dataset.task === 'classification' ? { kind: 'classification', labels: dataset.labels } : { kind: 'generation', maxTokens: GENERATION_MAX_TOKENS },
    examples,
    signal: job.signal,
    onProgress: (done, total) => job.progress(name, stage * total + done, runs * total),
  });
  const synthetic = await promptScores(request('synthetic prompt'), document.demonstrations);
  stage++;
  const zeroShot = await zeroShotScores(args.zeroShots, template, () => promptScores(request('zero-shot'), []));
  stage++;
  const realPublic = real ? await promptScores(request('real public demonstrations'), real) : null;
  const mean = (scores: readonly number[]) => scores.reduce((a, b) => a + b, 0) / scores.length;
  const common = dataset.task === 'classification' ? mostCommon(examples.map((e) => e.target)) : null;
  return {
    metric: dataset.task === 'classification' ? 'accuracy' : 'rouge-l',
    examples: examples.length,
    synthetic: mean(synthetic),
    zeroShot: mean(zeroShot),
    realPublic: realPublic && mean(realPublic),
    ...(common && {
      labels: countBy(examples.map((e) => e.target)),
      // "Always the most common label" scores its share in accuracy and 1/labels balanced: the bar to clear.
      mostCommon: { label: common.label, accuracy: common.count / examples.length },
      balanced: { synthetic: balancedScore(synthetic, examples), zeroShot: balancedScore(zeroShot, examples), realPublic: realPublic && balancedScore(realPublic, examples) },
    }),
    model: `${model.info.name} (${model.info.kind === 'baseline' ? 'baseline learner' : model.info.backend})`,
  };
}
