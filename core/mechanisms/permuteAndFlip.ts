/**
 * Permute-and-flip (McKenna & Sheldon, "Permute-and-Flip: A new mechanism for differentially
 * private selection", NeurIPS 2020, Alg. 1): visit candidates in a uniformly random order and
 * accept candidate r with probability exp(ε·(s_r − s*)/(2Δ)), s* = max score. ε-DP,
 * never worse in expected score than the exponential mechanism, and
 * identical in distribution to report-noisy-max with exponential noise (Ding et al. 2021).
 *
 * Neighbouring: as stated by the caller (default add/remove one unit).
 * Sensitivity: Δ = max per-score change between neighbours (ℓ∞); rate ε/Δ if `monotone`.
 * Candidate set: data-independent. Event: pure(ε).
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { uniformInt } from '../random/uniform';
import { requireFinite, requirePositive, type MechanismResult } from './types';

export interface PermuteAndFlipParams {
  epsilon: number;
  sensitivity: number;
  monotone?: boolean;
  neighbouring?: Neighbouring;
}

export function permuteAndFlip(
  scores: ArrayLike<number>,
  params: PermuteAndFlipParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<number> {
  requirePositive('epsilon', params.epsilon);
  requirePositive('sensitivity', params.sensitivity);
  requireFinite('scores', scores);
  const n = scores.length;
  if (n === 0) throw new Error('permuteAndFlip: no candidates');
  const rate = params.epsilon / ((params.monotone ? 1 : 2) * params.sensitivity);
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, scores[i]);
  // Lazy Fisher–Yates: position j receives a uniform pick from the unvisited tail.
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const event = { kind: 'pure', epsilon: params.epsilon, neighbouring: params.neighbouring ?? 'add-remove' } as const;
  for (let j = 0; j < n; j++) {
    const pick = j + uniformInt(random, n - j);
    const r = order[pick];
    order[pick] = order[j];
    order[j] = r;
    // The maximiser is accepted with probability 1, so the loop always returns.
    if (random.nextFloat() < Math.exp(rate * (scores[r] - max))) return { output: r, event };
  }
  throw new Error('permuteAndFlip: unreachable (the maximiser always flips heads)');
}
