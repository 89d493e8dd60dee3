/**
 * What private answering releases with noise, per query — the teachers' answers aggregated —
 * and its sensitivity under Veil's neighbouring relation, with the mechanism parameters that
 * match the event the planner (answering.ts) charges. An answering job must release these
 * aggregates through these parameters so that it charges what was planned.
 *
 * Neighbouring relation (ARCHITECTURE §4): add/remove one privacy unit. The unit is Poisson
 * sampled and, when sampled, lands in exactly one teacher's prompt, so at most one teacher's
 * answer changes — from one answer to another, or from none (a teacher left with no records
 * gives no answer) to one. Hence, for that one teacher:
 * - vote histogram: its vote moves from one class to another — two counts change by 1 each
 *   (ℓ2 √2); absent → present changes one count by 1 (dominated). The histogram is released
 *   with the exact discrete Gaussian N_ℤ(0, σ²) on each count (integers, no floating-point
 *   attack), so the event is the composition of two discrete Gaussians with shift 1:
 *   composed(discreteGaussian(σ, 1), 2), accounted by its exact PLD
 *   (core/accounting/pld/discreteGaussianLoss.ts), not by the continuous Gaussian's curve;
 * - sum of unit-norm answer embeddings: e → e′ moves the sum by ‖e − e′‖₂ ≤ ‖e‖ + ‖e′‖ = 2,
 *   attained by opposite answers (e′ = −e); absent → present moves it by ‖e‖ = 1 only. So
 *   ℓ2 2, not 1: the Gaussian noise is σ = multiplier × 2;
 * - keyword counts (the number of teachers whose response contains each keyword of a public
 *   universe): the teacher's keyword set changes, so counts move by ≤ 1 each (ℓ∞ 1) but in
 *   both directions (one keyword loses it, another gains it). The joint exponential
 *   mechanism's utility u(s) = −maxᵢ (c₍ᵢ₎ − c_{sᵢ}) then moves by up to 2 (an order statistic
 *   up by 1 while the chosen item's count drops by 1), so it runs with sensitivity 2Δ = 2
 *   (core/mechanisms/jointExponentialMechanism.ts) and is ε-DP at the ε it is given.
 */
import { composed, discreteGaussian, type PrivacyEvent } from '../accounting/events';
import type { DiscreteGaussianMechanismParams } from '../mechanisms/discreteGaussianMechanism';
import type { GaussianMechanismParams } from '../mechanisms/gaussianMechanism';
import type { JointExponentialParams } from '../mechanisms/jointExponentialMechanism';

/** ℓ2 change of the vote histogram when one teacher changes its vote (the noise multiplier is σ / this). */
export const VOTE_L2_SENSITIVITY = Math.SQRT2;
/** Counts of the vote histogram one teacher's change moves, each by VOTE_COUNT_SHIFT. */
export const VOTE_CHANGED_COUNTS = 2;
export const VOTE_COUNT_SHIFT = 1;
/** ℓ2 change of the sum of unit-norm embeddings when one teacher's answer changes (‖e − e′‖ ≤ 2). */
export const EMBEDDING_L2_SENSITIVITY = 2;
/** ℓ∞ change of the keyword counts when one teacher's keyword set changes (in both directions). */
export const KEYWORD_COUNT_LINF = 1;
/** Sensitivity of the joint exponential mechanism's utility on those counts: 2 · KEYWORD_COUNT_LINF. */
export const KEYWORD_UTILITY_SENSITIVITY = 2 * KEYWORD_COUNT_LINF;

/** Unit norm within this (embeddings come normalised from the model; the sensitivity relies on it). */
const UNIT_NORM_TOLERANCE = 1e-6;

/** Votes per class; a teacher without records (null) does not vote. */
export function voteHistogram(votes: readonly (number | null)[], classes: number): Float64Array {
  const histogram = new Float64Array(classes);
  for (const vote of votes) {
    if (vote === null) continue;
    if (!Number.isInteger(vote) || vote < 0 || vote >= classes) throw new RangeError(`voteHistogram: vote ${vote} is not a class in [0, ${classes})`);
    histogram[vote]++;
  }
  return histogram;
}

/** Sum of the teachers' unit-norm answer embeddings; a teacher without records (null) adds nothing. */
export function embeddingSum(embeddings: readonly (ArrayLike<number> | null)[], dimension: number): Float64Array {
  const sum = new Float64Array(dimension);
  for (const embedding of embeddings) {
    if (embedding === null) continue;
    if (embedding.length !== dimension) throw new RangeError(`embeddingSum: an embedding has ${embedding.length} dimensions, expected ${dimension}`);
    let norm = 0;
    for (let i = 0; i < dimension; i++) norm += embedding[i] * embedding[i];
    if (!(Math.abs(Math.sqrt(norm) - 1) <= UNIT_NORM_TOLERANCE)) throw new RangeError(`embeddingSum: embeddings must have unit norm (got ${Math.sqrt(norm)}): the sensitivity 2 relies on it`);
    for (let i = 0; i < dimension; i++) sum[i] += embedding[i];
  }
  return sum;
}

/**
 * Per keyword of a public universe (indices 0…universe−1), the number of teachers whose
 * response contains it; each teacher counts a keyword once; a teacher without records (null)
 * counts nothing.
 */
export function keywordCounts(sets: readonly (ReadonlySet<number> | null)[], universe: number): Float64Array {
  const counts = new Float64Array(universe);
  for (const set of sets) {
    if (set === null) continue;
    for (const keyword of set) {
      if (!Number.isInteger(keyword) || keyword < 0 || keyword >= universe) throw new RangeError(`keywordCounts: keyword ${keyword} is not in the universe [0, ${universe})`);
      counts[keyword]++;
    }
  }
  return counts;
}

/**
 * Discrete Gaussian noise N_ℤ(0, σ²) on each count of the vote histogram; the histogram's ℓ2
 * sensitivity is √2 (the mechanism's own event), charged exactly as voteEvent (two counts moved by 1).
 */
export const voteAggregationParams = (sigma: number): DiscreteGaussianMechanismParams => ({ sigma, l2Sensitivity: VOTE_L2_SENSITIVITY, neighbouring: 'add-remove' });

/** The vote's event at σ: two counts moved by 1 each, composed(discreteGaussian(σ, 1), 2). */
export const voteEvent = (sigma: number): PrivacyEvent => composed(discreteGaussian(sigma, VOTE_COUNT_SHIFT), VOTE_CHANGED_COUNTS);

/** Gaussian noise of standard deviation σ on the embedding sum (event gaussian(σ, 2)). */
export const embeddingAggregationParams = (sigma: number): GaussianMechanismParams => ({ sigma, l2Sensitivity: EMBEDDING_L2_SENSITIVITY, neighbouring: 'add-remove' });

/** The joint exponential mechanism on keyword counts at ε per query (event pure(ε)). */
export const keywordAggregationParams = (epsilon: number): JointExponentialParams => ({ epsilon, sensitivity: KEYWORD_UTILITY_SENSITIVITY, neighbouring: 'add-remove' });
