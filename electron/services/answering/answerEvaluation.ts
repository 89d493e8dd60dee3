/**
 * Evaluation mode: the released answers to held-out records scored against their references
 * (accuracy for classification, ROUGE-L for generation), beside ε = 0 (zero-shot: the model
 * with no private example), ε = ∞ (the same ensemble without noise — NOT private: a number for
 * the analyst only, never exported) and the best evaluated DP synthetic prompt of the dataset,
 * the comparison an analyst needs to choose between answering and a synthetic prompt — with the
 * planner's break-even (core/planning/breakEven.ts): after how many queries at this batch's noise
 * the synthetic prompt is the cheaper release. Classification also reports balanced accuracy (the
 * mean per-label accuracy, as synthesis's utility check does): on a skewed held-out split an
 * always-majority answer scores high accuracy but 1/labels balanced.
 * The held-out split is not private: its records are the queries and references.
 */
import { answerBatch } from '../../../core/icl/answering/answerBatch';
import { zeroShotAnswer, type AnswerSettings } from '../../../core/icl/answering/answerQuery';
import { composed, type PrivacyEvent } from '../../../core/accounting/events';
import { rougeL } from '../../../core/icl/rouge';
import { balancedScore } from '../../../core/icl/utility';
import { breakEvenQueries } from '../../../core/planning/breakEven';
import { searchEpsilon } from '../planner/fastAccounting';
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
  /** One query's event at the batch's noise, the batch's δ and what the batch costs in all (ε). */
  cost: { query: PrivacyEvent; delta: number; epsilon: number };
}): Promise<AnswerEvaluation> {
  const { job, queries, references } = args;
  const metric = args.dataset.task === 'classification' ? 'accuracy' : 'rouge-l';
  const scores = (answers: readonly string[]) => answers.map((a, i) => (metric === 'accuracy' ? Number(a === references[i]) : rougeL(a, references[i])));
  const score = (answers: readonly string[]) => mean(scores(answers));
  const targets = references.map((target, i) => ({ text: queries[i], target }));
  const balanced = (answers: readonly string[]) => balancedScore(scores(answers), targets);
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
  const noiseless = nonPrivate.results.map((r) => r.answer);
  const best = synthetic[0] ?? null;
  const synthEpsilon = best?.epsilon ?? args.cost.epsilon;
  job.progress('evaluation: break-even', 0, 1);
  const breakEven = breakEvenQueries(args.cost.query, synthEpsilon, (event, count) => searchEpsilon(count === 1 ? event : composed(event, count), args.cost.delta));
  return {
    metric,
    examples: queries.length,
    private: score(args.released),
    zeroShot: score(zeroShot),
    nonPrivate: score(noiseless),
    bestSynthetic: best,
    balanced: metric === 'accuracy' ? { private: balanced(args.released), zeroShot: balanced(zeroShot), nonPrivate: balanced(noiseless) } : null,
    breakEven: { queries: breakEven, synthEpsilon, basis: best ? `the best DP synthetic prompt (run ${best.runId})` : "a DP synthetic prompt priced at this batch's ε" },
  };
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
