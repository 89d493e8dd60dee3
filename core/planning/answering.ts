/**
 * The privacy event of private in-context answering, for planning (the answering jobs
 * themselves charge the same event).
 *
 * One query: Poisson-sample the private units with q = ensemble · shots / N (CSPRNG, fresh
 * per query), assign them uniformly to `ensemble` teachers (adding/removing one unit
 * changes one teacher), each teacher answers, and the answers are aggregated with noise
 * (sensitivities and mechanism parameters: answerAggregates.ts):
 * - 'vote': Gaussian noise on the vote histogram — one teacher moves its vote: ℓ2 √2
 *   (Papernot et al. 2018, GNMax);
 * - 'embedding': Gaussian noise on the sum of unit-norm answer embeddings — one teacher's
 *   embedding e becomes e′: ‖e − e′‖₂ ≤ 2, so ℓ2 2 (Wu et al. 2024, embedding space aggregation);
 * - 'keyword': joint exponential mechanism over the keyword counts of the responses
 *   (Gillenwater et al. 2022; Wu et al. 2024, keyword space aggregation). One teacher's
 *   keyword set changes: counts move by ≤ 1 (ℓ∞ 1) in both directions, so the mechanism's
 *   utility has sensitivity 2 and it runs with sensitivity 2; it is then ε-DP per query.
 * - 'sga': semantic group aggregation — DPM clustering of the answer embeddings (splits by the
 *   exponential mechanism, Gaussian leaf counts and sums), parameter ρ (sgaEvent.ts).
 * Event per query: PoissonSampled(q, Gaussian(σ, Δ2)), PoissonSampled(q, PureDp(ε_q)) or
 * PoissonSampled(q, sgaMechanismEvent(ρ, depth));
 * the workload charges Composed(query, Q) — every query, answered or not.
 */
import { composed, gaussian, poissonSampled, pureDp, type PrivacyEvent } from '../accounting/events';
import { EMBEDDING_L2_SENSITIVITY, VOTE_L2_SENSITIVITY } from './answerAggregates';
import { DEFAULT_SGA_DEPTH, sgaMechanismEvent } from './sgaEvent';

export type AnswerAggregation = 'vote' | 'embedding' | 'keyword' | 'sga';

export interface AnsweringShape {
  /** Teachers per query. */
  ensemble: number;
  /** Private examples per teacher prompt. */
  shots: number;
  aggregation: AnswerAggregation;
  /** 'sga': split levels of the DPM tree (default DEFAULT_SGA_DEPTH). */
  sgaDepth?: number;
}

export { EMBEDDING_L2_SENSITIVITY, KEYWORD_UTILITY_SENSITIVITY, VOTE_L2_SENSITIVITY } from './answerAggregates';

/** ℓ2 sensitivity of a Gaussian aggregation's released vector. */
export const aggregationL2Sensitivity = (a: 'vote' | 'embedding'): number => (a === 'vote' ? VOTE_L2_SENSITIVITY : EMBEDDING_L2_SENSITIVITY);

/** True for the Gaussian aggregations (noise parameter σ, falls with ε); false for ε-DP keyword and ρ-parameterised sga (ε rises with p). */
export const isGaussianAggregation = (a: AnswerAggregation): a is 'vote' | 'embedding' => a === 'vote' || a === 'embedding';

export function answeringRate(shape: Pick<AnsweringShape, 'ensemble' | 'shots'>, units: number): number {
  if (units <= 0) throw new Error('the private split is empty');
  return Math.min(1, (shape.ensemble * shape.shots) / units);
}

/** One query's event at noise parameter p (σ for Gaussian aggregations, ε per query for 'keyword', ρ for 'sga'). */
export function queryEvent(shape: AnsweringShape, units: number, p: number): PrivacyEvent {
  const q = answeringRate(shape, units);
  if (shape.aggregation === 'keyword') return poissonSampled(q, pureDp(p));
  if (shape.aggregation === 'sga') return poissonSampled(q, sgaMechanismEvent(p, shape.sgaDepth ?? DEFAULT_SGA_DEPTH));
  return poissonSampled(q, gaussian(p, aggregationL2Sensitivity(shape.aggregation)));
}

export function answeringEvent(shape: AnsweringShape, units: number, p: number, queries: number): PrivacyEvent {
  if (!Number.isInteger(queries) || queries < 1) throw new Error('queries must be a positive integer');
  return composed(queryEvent(shape, units, p), queries);
}
