/**
 * Evaluation mode: the released answers to held-out records scored against their references
 * (accuracy for classification, ROUGE-L for generation), beside ε = 0 (zero-shot: the model
 * with no private example), ε = ∞ (the same ensemble without noise — NOT private: a number for
 * the analyst only, never exported) and the best evaluated DP synthetic prompt of the dataset,
 * the comparison an analyst needs to choose between answering and a synthetic prompt.
 * The held-out split is not private: its records are the queries and references.
 */
import { answerBatch } from '../../../core/icl/answering/answerBatch';
import { zeroShotAnswer, type AnswerSettings } from '../../../core/icl/answering/answerQuery';
import { rougeL } from '../../../core/icl/rouge';
import type { AnswerEvaluation } from '../../shared/api/answering';
import type { SynthesisRunDto } from '../../shared/api/synthesis';
import type { JobContext } from '../jobs/jobManager';
import type { SynthesisDataset } from '../synthesis/synthesisSource';

export async function evaluateAnswers(args: {
  job: JobContext;
  dataset: SynthesisDataset;
  /** The batch's settings (the ε = ∞ baseline runs them with noise null). */
  settings: Omit<AnswerSettings, 'onTeacher'>;
  queries: string[];
  references: string[];
  released: string[];
  synthesisRuns: () => Promise<SynthesisRunDto[]>;
}): Promise<AnswerEvaluation> {
  const { job, queries, references } = args;
  const metric = args.dataset.task === 'classification' ? 'accuracy' : 'rouge-l';
  const score = (answers: readonly string[]) => mean(answers.map((a, i) => (metric === 'accuracy' ? Number(a === references[i]) : rougeL(a, references[i]))));
  const zeroShot: string[] = [];
  for (const [i, query] of queries.entries()) {
    job.progress('evaluation: zero-shot', i, queries.length);
    zeroShot.push(await zeroShotAnswer(args.settings, query));
  }
  const nonPrivate = await answerBatch({ ...args.settings, noise: null }, queries, (p) => job.progress('evaluation: ensemble without noise', p.queriesDone, p.queriesTotal));
  const synthetic = (await args.synthesisRuns())
    .filter((r) => r.utility?.metric === metric)
    .map((r) => ({ runId: r.id, epsilon: r.epsilon, score: r.utility!.synthetic }))
    .sort((a, b) => b.score - a.score || a.epsilon - b.epsilon);
  return {
    metric,
    examples: queries.length,
    private: score(args.released),
    zeroShot: score(zeroShot),
    nonPrivate: score(nonPrivate.results.map((r) => r.answer)),
    bestSynthetic: synthetic[0] ?? null,
  };
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
