/**
 * What an answering batch charges: the planner's per-query event (core/planning/answering.ts)
 * for vote, embedding and keyword-EM, the PTR query event for keyword-PTR, composed over every
 * query of the batch (answered or not), after the noisy size of the private split the sampling
 * rate is computed from.
 *
 * Sizes are data (ARCHITECTURE §4): q = ensemble · shots / N must not use the exact private
 * count. The batch releases Ñ = N + DLap(1/ε_size) (discrete Laplace, exact sampler, ℓ1
 * sensitivity 1 under add/remove: event pure(ε_size)) and computes q from Ñ — post-processing
 * of a charged release (adaptive composition). Its event is the first of the batch's sequence.
 *
 * PTR per query: the sampled step runs pure(ε/2) then approx(ε/2, δ₀) on the same sample, so it
 * is (ε, δ₀)-DP (basic composition) and charged poissonSampled(q, approx(ε, δ₀)) — one δ₀ per
 * query, composed over the batch (the reference code charged one δ₀ for 100 queries).
 */
import { approxDp, composed, poissonSampled, sequence, type PrivacyEvent } from '../../accounting/events';
import { discreteLaplaceMechanism } from '../../mechanisms/discreteLaplaceMechanism';
import { ptrTopKEvent } from '../../mechanisms/ptrTopK';
import { answeringRate, queryEvent, type AnswerAggregation as PlannedAggregation } from '../../planning/answering';
import type { RandomSource } from '../../random/randomSource';
import { requirePrivateRandom } from '../../random/privatePathRandom';

export type AnswerMethod = PlannedAggregation | 'ptr';

export interface AnswerShape {
  ensemble: number;
  shots: number;
  method: AnswerMethod;
  /** 'sga': split levels of the DPM tree (default DEFAULT_SGA_DEPTH). */
  sgaDepth?: number;
}

/** ε of the noisy size release, as a share of the batch's ε (capped: the count needs little). */
export const SIZE_EPSILON_SHARE = 0.05;
export const SIZE_EPSILON_CAP = 0.1;
export const sizeEpsilon = (batchEpsilon: number) => Math.min(SIZE_EPSILON_CAP, SIZE_EPSILON_SHARE * batchEpsilon);

/** The noisy size Ñ ≥ 1 of a private split of `units` units, and its event pure(ε). */
export function noisyUnits(units: number, epsilon: number, random: RandomSource): { units: number; event: PrivacyEvent } {
  requirePrivateRandom(random, 'the answering size release');
  const { output, event } = discreteLaplaceMechanism([units], { scale: 1 / epsilon, l1Sensitivity: 1 }, random);
  return { units: Math.max(1, output[0]), event };
}

/** One query's event at noise parameter p (σ for vote/embedding, ε per query for keyword/ptr). */
export function answerQueryEvent(shape: AnswerShape, units: number, p: number, ptrDelta: number): PrivacyEvent {
  if (shape.method === 'ptr') return poissonSampled(answeringRate(shape, units), approxDp(p, ptrDelta));
  return queryEvent({ ensemble: shape.ensemble, shots: shape.shots, aggregation: shape.method, sgaDepth: shape.sgaDepth }, units, p);
}

/** The batch's event: the size release (if any), then `queries` queries at p. */
export function answerBatchEvent(shape: AnswerShape, units: number, p: number, queries: number, ptrDelta: number, sizeEvent: PrivacyEvent | null): PrivacyEvent {
  if (!Number.isInteger(queries) || queries < 1) throw new Error('queries must be a positive integer');
  const all = composed(answerQueryEvent(shape, units, p, ptrDelta), queries);
  return sizeEvent ? sequence([sizeEvent, all]) : all;
}

/** True for the Gaussian methods (p = σ, ε falls as p rises). */
export const isGaussianMethod = (method: AnswerMethod) => method === 'vote' || method === 'embedding';

/** The event each query's mechanism must report (before sampling): the inner event of answerQueryEvent, PTR as run. */
export function mechanismEvent(method: AnswerMethod, p: number, ptrDelta: number, ptrSelectShare: number, sgaDepth?: number): PrivacyEvent {
  if (method === 'ptr') return ptrTopKEvent({ epsilonSelect: p * ptrSelectShare, epsilonTest: p * (1 - ptrSelectShare), delta: ptrDelta });
  const planned = queryEvent({ ensemble: 1, shots: 1, aggregation: method, sgaDepth }, 1, p);
  if (planned.kind !== 'poisson-sampled') throw new Error('internal: a planned query event is Poisson-sampled');
  return planned.event;
}
