/**
 * Private answering (DP-ICL): price a batch of queries, run it as a budgeted job (one
 * reservation per batch), list and read runs, export the answers with their certificate.
 * Evaluation mode answers held-out records and scores the answers against their references.
 */
import { z } from 'zod';
import { privacyEventSchema } from '../../../core/accounting/events';
import { answerMethodSchema, dpAnswersSchema } from '../../../core/export/dpAnswersFormat';
import { method } from './define';
import { sgaNoiseSchema, sgaRequestFields } from './sgaRequest';
import { runStatusSchema } from './synthesis';

export { answerMethodSchema } from '../../../core/export/dpAnswersFormat';
export type AnswerMethodName = z.infer<typeof answerMethodSchema>;

const bounds = z.object({ lower: z.number(), estimate: z.number(), upper: z.number() });

export const answerRequestSchema = z
  .object({
    dataset: z.string().min(1).describe('dataset name'),
    aggregation: answerMethodSchema.optional().describe('default: vote for classification; for generation sga with public examples, else embedding'),
    queries: z.array(z.string().min(1).max(20_000)).max(10_000).default([]).describe('the questions (public input); empty with evaluate'),
    epsilon: z.number().positive().max(100).describe('ε of the whole batch, or of each query with perQuery'),
    perQuery: z.boolean().default(false),
    delta: z.number().positive().lt(1).optional().describe('default: the dataset budget δ'),
    ensemble: z.number().int().min(1).max(200).default(10).describe('teachers M per query'),
    shots: z.number().int().min(1).max(50).default(2).describe('expected private examples per teacher'),
    keywords: z.number().int().min(1).max(50).default(5).describe('keywords released (keyword) or largest k (ptr)'),
    candidates: z.number().int().min(1).max(100).default(20).describe('public zero-shot candidates (embedding, keyword, ptr)'),
    maxTokens: z.number().int().min(1).max(512).default(48),
    instruction: z.string().max(2000).optional(),
    maxExampleChars: z.number().int().min(20).max(20_000).default(400),
    evaluate: z.number().int().min(1).max(2000).optional().describe('answer this many held-out records and score the answers'),
    ...sgaRequestFields,
  })
  .strict();
export type AnswerRequest = z.output<typeof answerRequestSchema>;

export const answerPlanSchema = z.object({
  request: answerRequestSchema,
  aggregation: answerMethodSchema,
  queries: z.number(),
  delta: z.number(),
  /** σ (vote: of the exact discrete Gaussian on each count; embedding), ε per query (keyword, ptr) or ρ per query (sga). */
  noise: z.union([
    z.object({ kind: z.literal('discrete-gaussian'), sigma: z.number() }),
    z.object({ kind: z.literal('gaussian'), sigma: z.number() }),
    z.object({ kind: z.literal('pure'), epsilonPerQuery: z.number() }),
    sgaNoiseSchema,
  ]),
  /** PTR's δ₀ per test (ptr only). */
  ptrDelta: z.number().nullable(),
  /** ε of the noisy size release q is computed from (its own ledger entry); null where the size is declared public. */
  sizeEpsilon: z.number().nullable(),
  q: z.number(),
  /** The batch's reservation: the planner's event for these settings. */
  event: privacyEventSchema,
  /** What the answers cost in all (the size release, then `event`): `epsilon` is its ε. */
  totalEvent: privacyEventSchema,
  epsilon: bounds,
  accountant: z.string(),
  budget: z.object({ cap: z.number(), spent: z.number(), afterJob: z.number(), batchesLeft: z.number(), atLimit: z.boolean() }).nullable(),
  warnings: z.array(z.string()),
});
export type AnswerPlanDto = z.infer<typeof answerPlanSchema>;

export const answerEvaluationSchema = z.object({
  metric: z.enum(['accuracy', 'rouge-l']),
  examples: z.number(),
  private: z.number(),
  zeroShot: z.number(),
  /** The same ensemble without noise: NOT private, shown for comparison only. */
  nonPrivate: z.number(),
  /** The best DP synthetic prompt of the dataset, where one was evaluated with the same metric. */
  bestSynthetic: z.object({ runId: z.number(), epsilon: z.number(), score: z.number() }).nullable(),
  /** Classification: the mean of the per-label accuracies (an always-majority answer scores 1/labels). */
  balanced: z.object({ private: z.number(), zeroShot: z.number(), nonPrivate: z.number() }).nullable().optional(),
  /**
   * The planner's break-even (core/planning/breakEven.ts): the fewest queries at this batch's noise
   * whose composed ε exceeds the synthetic prompt's ε (the best one's, else one priced at this
   * batch's ε); null when even 1,000,000 queries cost less. Beyond it the prompt is cheaper.
   */
  breakEven: z.object({ queries: z.number().nullable(), synthEpsilon: z.number(), basis: z.string() }).optional(),
});
export type AnswerEvaluation = z.infer<typeof answerEvaluationSchema>;

export const answerRunSchema = z.object({
  id: z.number(),
  dataset: z.string(),
  aggregation: answerMethodSchema,
  status: runStatusSchema,
  jobId: z.string(),
  createdAt: z.string(),
  epsilon: z.number(),
  delta: z.number(),
  queries: z.number(),
  ledgerEntryId: z.number().nullable(),
  error: z.string().nullable(),
  /** Teachers replaced by "no answer" after a backend failure, over the batch (reported only after it). */
  failedTeachers: z.number().nullable(),
  document: dpAnswersSchema.nullable(),
  evaluation: answerEvaluationSchema.nullable(),
});
export type AnswerRunDto = z.infer<typeof answerRunSchema>;

const runId = z.object({ id: z.number().int().positive() }).strict();

export const answeringMethods = {
  'ask.plan': method(answerRequestSchema, answerPlanSchema, 'Calibrate the noise of a batch of private answers and price it against the budget'),
  'ask.start': method(answerRequestSchema, z.object({ jobId: z.string(), runId: z.number() }), 'Reserve the batch in the ledger and start answering'),
  'ask.list': method(z.object({ dataset: z.string().optional() }).strict(), z.array(answerRunSchema.omit({ document: true })), 'Answering runs, newest first'),
  'ask.get': method(runId, answerRunSchema, 'One answering run with its answers document'),
  'ask.export': method(runId, z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }), 'The answers as veil.dp-answers/v1 JSON with the batch certificate'),
};

export const answerProgressSchema = z.object({
  runId: z.number(),
  jobId: z.string(),
  queriesDone: z.number(),
  queriesTotal: z.number(),
  teachersDone: z.number(),
  teachersTotal: z.number(),
});
export type AnswerProgress = z.infer<typeof answerProgressSchema>;

export const answeringEvents = {
  'ask.progress': answerProgressSchema,
};
