/**
 * What an answering batch charges: the planner's per-query event (core/planning/answering.ts)
 * for vote, embedding and keyword-EM, the PTR query event for keyword-PTR, composed over every
 * query of the batch (answered or not). The batch's reservation is exactly this event.
 *
 * Sizes are data (ARCHITECTURE §4): q = ensemble · shots / N must not use the exact private
 * count. Before the batch is priced, the size of the private split is released by the shared
 * size release (electron/services/sizes/poolSizes.ts: discrete Laplace, pure(ε_size), its own
 * ledger entry — or exact where the analyst declared the size public) and q is computed from
 * it: post-processing of a charged release (adaptive composition). What the batch's answers
 * cost in all is then sequence([size release, batch]) (answerTotalEvent): the ε calibrated to
 * the analyst's target and stated by the certificate.
 *
 * PTR per query: the sampled step runs pure(ε/2) then approx(ε/2, δ₀) on the same sample, so it
 * is (ε, δ₀)-DP (basic composition) and charged poissonSampled(q, approx(ε, δ₀)) — one δ₀ per
 * query, composed over the batch (the reference code charged one δ₀ for 100 queries).
 */
import { approxDp, composed, poissonSampled, sequence, type PrivacyEvent } from '../../accounting/events';
import { ptrTopKEvent } from '../../mechanisms/ptrTopK';
import { answeringRate, queryEvent, type AnswerAggregation as PlannedAggregation } from '../../planning/answering';

export type AnswerMethod = PlannedAggregation | 'ptr';

export interface AnswerShape {
  ensemble: number;
  shots: number;
  method: AnswerMethod;
  /** 'sga': split levels of the DPM tree (default DEFAULT_SGA_DEPTH). */
  sgaDepth?: number;
}

/** One query's event at noise parameter p (σ for vote/embedding, ε per query for keyword/ptr). */
export function answerQueryEvent(shape: AnswerShape, units: number, p: number, ptrDelta: number): PrivacyEvent {
  if (shape.method === 'ptr') return poissonSampled(answeringRate(shape, units), approxDp(p, ptrDelta));
  return queryEvent({ ensemble: shape.ensemble, shots: shape.shots, aggregation: shape.method, sgaDepth: shape.sgaDepth }, units, p);
}

/** The batch's event (its reservation): `queries` queries at p. */
export function answerBatchEvent(shape: AnswerShape, units: number, p: number, queries: number, ptrDelta: number): PrivacyEvent {
  if (!Number.isInteger(queries) || queries < 1) throw new Error('queries must be a positive integer');
  return composed(answerQueryEvent(shape, units, p, ptrDelta), queries);
}

/** What the batch's answers cost in all: the size release they were priced from (if charged), then the batch. */
export const answerTotalEvent = (sizeEvent: PrivacyEvent | null, batch: PrivacyEvent): PrivacyEvent => (sizeEvent ? sequence([sizeEvent, batch]) : batch);

/** True for the Gaussian methods (p = σ, ε falls as p rises). */
export const isGaussianMethod = (method: AnswerMethod) => method === 'vote' || method === 'embedding';

/** The event each query's mechanism must report (before sampling): the inner event of answerQueryEvent, PTR as run. */
export function mechanismEvent(method: AnswerMethod, p: number, ptrDelta: number, ptrSelectShare: number, sgaDepth?: number): PrivacyEvent {
  if (method === 'ptr') return ptrTopKEvent({ epsilonSelect: p * ptrSelectShare, epsilonTest: p * (1 - ptrSelectShare), delta: ptrDelta });
  const planned = queryEvent({ ensemble: 1, shots: 1, aggregation: method, sgaDepth }, 1, p);
  if (planned.kind !== 'poisson-sampled') throw new Error('internal: a planned query event is Poisson-sampled');
  return planned.event;
}
