/**
 * The four ways DP-ICL (Wu, Panda, Wang & Mittal, ICLR 2024) releases one answer from the
 * teachers' answers, each through the mechanism parameters of core/planning/answerAggregates.ts
 * so that what is released is what the planner priced. A teacher that gave no answer (no
 * records, or a backend failure replaced by the fixed public "no answer") is null.
 *
 * - vote (S1, GNMax — Papernot et al. 2018): exact discrete Gaussian noise N_ℤ(0, σ²) on each
 *   count of the vote histogram (Canonne, Kamath & Steinke 2020: integers, no floating point);
 *   the noisy histogram is released as the confidence and the answer is its arg-max, ties
 *   broken uniformly by the CSPRNG (post-processing: the tie-break uses no data). One teacher
 *   moving its vote moves two counts by 1: event composed(discreteGaussian(σ, 1), 2);
 * - embedding (S2, ESA): Gaussian noise σ on the sum of unit-norm answer embeddings (ℓ2 2);
 *   the answer is the public candidate nearest to the noisy mean (max inner product: candidates
 *   have unit norm, so the nearest does not depend on the scale of the mean);
 * - keyword (S3, KSA by joint EM — Gillenwater et al. 2022): ordered top-k keywords of a public
 *   universe by the joint exponential mechanism at ε (utility sensitivity 2);
 * - ptr (S4, KSA by PTR with private k — Zhu & Wang 2022): k by noisy max over the count gaps
 *   (ε/2), then a stability test of exactly the released boundary (ε/2, δ₀); ⊥ when it fails.
 *   Its event (ε, δ₀)-DP by basic composition (ptrTopKEvent: pure(ε/2) then approx(ε/2, δ₀)).
 * `noise: null` is the non-private ensemble (ε = ∞, evaluation only): the same aggregate, exact.
 */
import { pureDp, type PrivacyEvent } from '../../accounting/events';
import { discreteGaussianMechanism } from '../../mechanisms/discreteGaussianMechanism';
import { gaussianMechanism } from '../../mechanisms/gaussianMechanism';
import { jointExponentialTopK } from '../../mechanisms/jointExponentialMechanism';
import { ptrTopK } from '../../mechanisms/ptrTopK';
import { sortIndicesDescending } from '../../mechanisms/types';
import {
  embeddingAggregationParams, embeddingSum, keywordAggregationParams, KEYWORD_UTILITY_SENSITIVITY, keywordCounts, voteAggregationParams, voteEvent, voteHistogram,
} from '../../planning/answerAggregates';
import type { RandomSource } from '../../random/randomSource';
import { uniformInt } from '../../random/uniform';
import { argmax } from '../teacherEnsemble';

/** An aggregate's output with the event its mechanism charged (null: non-private, nothing released). */
export interface Aggregated<T> {
  output: T;
  event: PrivacyEvent | null;
}

export interface VoteOutput {
  /** Index of the released class. */
  answer: number;
  /** The noisy integer vote histogram (exact counts when non-private). */
  histogram: number[];
}

export function aggregateVote(votes: readonly (number | null)[], classes: number, sigma: number | null, random: RandomSource): Aggregated<VoteOutput> {
  const histogram = Array.from(voteHistogram(votes, classes));
  if (sigma === null) return { output: { answer: argmaxTiesRandom(histogram, random), histogram }, event: null };
  const { output: noisy } = discreteGaussianMechanism(histogram, voteAggregationParams(sigma), random);
  return { output: { answer: argmaxTiesRandom(noisy, random), histogram: noisy }, event: voteEvent(sigma) };
}

/** Index of the largest value, a tie broken uniformly at random (public randomness: post-processing). */
export function argmaxTiesRandom(values: readonly number[], random: RandomSource): number {
  const top = Math.max(...values);
  const tied = values.flatMap((v, i) => (v === top ? [i] : []));
  return tied.length === 1 ? tied[0] : tied[uniformInt(random, tied.length)];
}

/** Index of the candidate (unit-norm embeddings) nearest to the (noisy) sum of the teachers' embeddings. */
export function aggregateEmbedding(
  embeddings: readonly (ArrayLike<number> | null)[],
  candidates: readonly ArrayLike<number>[],
  sigma: number | null,
  random: RandomSource,
): Aggregated<number> {
  if (candidates.length === 0) throw new Error('aggregateEmbedding: no public candidates');
  const dimension = candidates[0].length;
  const sum = embeddingSum(embeddings, dimension);
  const released = sigma === null ? { output: sum, event: null } : gaussianMechanism(sum, embeddingAggregationParams(sigma), random);
  const scores = candidates.map((c) => {
    let dot = 0;
    for (let i = 0; i < dimension; i++) dot += c[i] * released.output[i];
    return dot;
  });
  return { output: argmax(scores), event: released.event };
}

/** Ordered top-k universe indices (k clamped to the public universe's size); [] for an empty universe. */
export function aggregateKeywordsEm(
  sets: readonly (ReadonlySet<number> | null)[],
  universe: number,
  k: number,
  epsilon: number | null,
  random: RandomSource,
): Aggregated<number[]> {
  const counts = keywordCounts(sets, universe);
  const size = Math.min(k, universe);
  if (epsilon === null) return { output: Array.from(sortIndicesDescending(counts).subarray(0, size)), event: null };
  const params = keywordAggregationParams(epsilon);
  // An empty universe releases nothing but is still charged: the query counts whatever it gives.
  if (size === 0) return { output: [], event: pureDp(epsilon) };
  return jointExponentialTopK(counts, size, params, random);
}

export interface PtrOutput {
  /** The privately chosen k. */
  k: number;
  /** The released keyword set (ascending universe indices), or null when the test failed (⊥). */
  items: number[] | null;
}

/** Split of a PTR query's ε between choosing k and the stability test. */
export const PTR_SELECT_SHARE = 0.5;

export function aggregateKeywordsPtr(
  sets: readonly (ReadonlySet<number> | null)[],
  universe: number,
  maxK: number,
  privacy: { epsilon: number; delta: number } | null,
  random: RandomSource,
): Aggregated<PtrOutput> {
  const counts = keywordCounts(sets, universe);
  if (privacy === null) {
    // Non-private: the k of the largest gap, and its top-k set.
    const order = sortIndicesDescending(counts);
    const at = (i: number) => (i < universe ? counts[order[i]] : 0);
    let k = 1;
    for (let kk = 2; kk <= maxK; kk++) if (at(kk - 1) - at(kk) > at(k - 1) - at(k)) k = kk;
    return { output: { k, items: Array.from(order.subarray(0, Math.min(k, universe))).sort((a, b) => a - b) }, event: null };
  }
  return ptrTopK(
    counts,
    {
      maxK,
      epsilonSelect: privacy.epsilon * PTR_SELECT_SHARE,
      epsilonTest: privacy.epsilon * (1 - PTR_SELECT_SHARE),
      delta: privacy.delta,
      // One teacher's keyword set changes: one count may rise while another falls, so a gap moves by 2.
      sensitivity: KEYWORD_UTILITY_SENSITIVITY,
    },
    random,
  );
}
