/**
 * Pricing a batch of private answers: the aggregation (default by task), the noise calibrated
 * so that what the batch costs in all (core/icl/answering/answerEvents.ts: the size release q is
 * computed from, then every query's planned event) has ε upper bound ≤ the requested ε at δ —
 * for the whole batch, or for each query with perQuery — and what the budget has left.
 *
 * `units` is the size q is computed from. A job prices with the size it has already released
 * and charged (answeringService.ts: noisy, or exact where the analyst declared the size
 * public); a preview (ask.plan) prices with the exact size, shown to the analyst only and never
 * released — the calibration targets the same ε either way, and the job's own numbers differ
 * slightly (q, σ) because its size is noisy.
 */
import { accountEpsilon } from '../../../core/accounting';
import { composed, type PrivacyEvent } from '../../../core/accounting/events';
import { answerBatchEvent, answerQueryEvent, answerTotalEvent, isGaussianMethod, type AnswerShape } from '../../../core/icl/answering/answerEvents';
import { POOL_SIZE_EPSILON, poolSizeEvent } from '../../../core/icl/noisyPoolSizes';
import { largestWithinCap } from '../../../core/math/countSearch';
import { answeringRate } from '../../../core/planning/answering';
import type { AnswerMethodName, AnswerPlanDto, AnswerRequest } from '../../shared/api/answering';
import { chargeEach, composedEpsilonUpper } from '../ledger/ledgerAccounting';
import { calibrateTwoStage } from '../planner/fastAccounting';
import { overCapWarning, planWarnings } from '../planner/planWarnings';
import { RefusalError } from '../refusalError';
import { refuseBelowSizeRelease } from '../sizes/poolSizes';
import { budgetAfter, type BudgetState } from '../ledger/releaseLedger';
import type { SynthesisDataset } from '../synthesis/synthesisSource';
import { defaultDelta } from '../../../core/accounting/defaultDelta';
import { checkPublicData } from './sgaSettings';

const CALIBRATION_TOLERANCE = 1e-3;
/** Batches counted when saying what is left; beyond, "at least this many". */
const BATCHES_LEFT_LIMIT = 10_000;

export interface PricedAnswers {
  plan: AnswerPlanDto;
  shape: AnswerShape;
  /** The noise parameter: σ (vote, embedding), ε per query (keyword, ptr) or ρ per query (sga). */
  parameter: number;
  ptrDelta: number;
  /** Public examples the batch's public ensemble reads (0: none). */
  publicExamples: number;
}

/** The aggregation: as requested, else vote for classification, sga for generation with public examples, else embedding. */
export function defaultAggregation(dataset: SynthesisDataset, requested: AnswerMethodName | undefined, publicExamples = 0): AnswerMethodName {
  const method = requested ?? (dataset.task === 'classification' ? 'vote' : publicExamples > 0 ? 'sga' : 'embedding');
  if (dataset.task === 'classification' && method !== 'vote') throw new RefusalError(`"${dataset.name}" is a classification task: its queries are answered by private voting (aggregation vote)`);
  if (dataset.task === 'generation' && method === 'vote') throw new RefusalError(`"${dataset.name}" is a generation task: private voting needs a public label set (use embedding, keyword or ptr)`);
  if (dataset.task === 'classification' && dataset.labels.length === 0) throw new RefusalError(`dataset "${dataset.name}" has no public label set: declare its labels in the vault first`);
  return method;
}

export interface PricingInput {
  request: AnswerRequest;
  dataset: SynthesisDataset;
  /** Size the sampling rate is computed from (released and charged in a job). */
  units: number;
  queries: number;
  budget: BudgetState | null;
  /** True in a job: the size release is already charged (in `budget.spent`); a preview counts it. */
  sizeCharged?: boolean;
  /** Public examples of the dataset (its own public split, or its public source's). */
  publicExamples?: number;
}

/**
 * The batch's ε must cover the size release it composes first (batch mode); refused before
 * anything is drawn — it depends on the request and the dataset's setting only.
 */
export function checkCoversSize(request: AnswerRequest, sizeEvent: PrivacyEvent | null): void {
  if (!request.perQuery) refuseBelowSizeRelease(request.epsilon, sizeEvent, 'the noisy size of the private split');
}

export function priceAnswers({ request, dataset, units, queries, budget, sizeCharged = false, publicExamples = 0 }: PricingInput): PricedAnswers {
  if (queries < 1) throw new RefusalError('no queries to answer: give at least one');
  const method = defaultAggregation(dataset, request.aggregation, publicExamples);
  checkPublicData(dataset, method, request, publicExamples);
  const shape: AnswerShape = { ensemble: request.ensemble, shots: request.shots, method, ...(method === 'sga' ? { sgaDepth: request.sgaDepth } : {}) };
  const delta = request.delta ?? budget?.delta ?? defaultDelta(units);
  const sizeEvent = poolSizeEvent(dataset.sizePublic === true);
  checkCoversSize(request, sizeEvent);
  // PTR: δ₀ per test, a share of δ for the tests together (composition adds them).
  const ptrDelta = method === 'ptr' ? delta / (2 * (request.perQuery ? 1 : queries)) : 0;
  const family = request.perQuery
    ? (p: number) => answerQueryEvent(shape, units, p, ptrDelta)
    : (p: number) => answerTotalEvent(sizeEvent, answerBatchEvent(shape, units, p, queries, ptrDelta));
  let parameter: number;
  try {
    parameter = calibrateTwoStage({ family, target: { epsilon: request.epsilon, delta }, decreasing: isGaussianMethod(method), tolerance: CALIBRATION_TOLERANCE });
  } catch (error) {
    throw new RefusalError(`no noise level gives ε ≤ ${request.epsilon} at δ = ${delta} for ${queries} queries (${(error as Error).message}): raise ε or answer fewer queries`);
  }
  const event = answerBatchEvent(shape, units, parameter, queries, ptrDelta);
  const total = answerTotalEvent(sizeEvent, event);
  const account = accountEpsilon(total, delta);
  // In a job the size release is already in `spent`; a preview counts it here.
  const charge = sizeCharged ? event : total;
  const after = budgetAfter(budget, charge);
  const q = answeringRate(shape, units);
  return {
    shape,
    parameter,
    ptrDelta,
    publicExamples,
    plan: {
      request,
      aggregation: method,
      queries,
      delta,
      noise: method === 'vote' ? { kind: 'discrete-gaussian', sigma: parameter } : isGaussianMethod(method) ? { kind: 'gaussian', sigma: parameter } : method === 'sga' ? { kind: 'sga', rho: parameter } : { kind: 'pure', epsilonPerQuery: parameter },
      ptrDelta: method === 'ptr' ? ptrDelta : null,
      sizeEpsilon: sizeEvent === null ? null : POOL_SIZE_EPSILON,
      q,
      event,
      totalEvent: total,
      epsilon: account.bounds,
      accountant: account.accountant,
      budget: budget && after ? { ...after, ...batchesLeft(budget, charge, after.spent) } : null,
      warnings: [
        ...planWarnings({ delta, units, epsilon: account.bounds.upper, rates: [{ pool: '(all)', q }] }),
        ...(after && after.afterJob > after.cap ? [overCapWarning(after.afterJob, after.cap)] : []),
      ],
    },
  };
}

/** How many more batches like this one fit in the budget (after what is already spent). */
function batchesLeft(budget: BudgetState, event: PrivacyEvent, spent: number): { batchesLeft: number; atLimit: boolean } {
  const value = (n: number) => (n === 0 ? spent : composedEpsilonUpper([...chargeEach(budget.spent), { event: composed(event, n), count: 1 }], budget.delta));
  if (value(1) > budget.cap) return { batchesLeft: 0, atLimit: false };
  const found = largestWithinCap({ value, cap: budget.cap, from: { n: 1, value: value(1) }, limit: BATCHES_LEFT_LIMIT });
  return { batchesLeft: found.count, atLimit: found.atLimit };
}
