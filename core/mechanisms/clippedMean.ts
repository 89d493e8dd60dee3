/**
 * Clipped mean: clip every vector to ℓ2 norm ≤ C (x·min(1, C/‖x‖)), then release the noisy
 * sum divided by a noisy count. This is the ball-projected mean with centre 0 and radius C
 * (`projectedMean`), so the same statement holds:
 *
 * Neighbouring: add/remove one unit (default) — sum Δ₂ = C, count Δ = 1; event
 * sequence([gaussian(σ_sum, C), gaussian(σ_count, 1)]). With a public n (replace-one),
 * Δ₂ = 2C; event gaussian(σ_sum, 2C, replace-one).
 * For scalars in an interval [lo, hi], use `projectedMean` in one dimension with centre
 * (lo+hi)/2 and radius (hi−lo)/2: clamping to the interval is that projection.
 */
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { projectedMean, type MeanCount, type ProjectedMeanOutput } from './projectedMean';
import type { MechanismResult } from './types';

export interface ClippedMeanParams {
  clipNorm: number;
  sigmaSum: number;
  count: MeanCount;
}

export function clippedMean(
  points: readonly ArrayLike<number>[],
  dimension: number,
  params: ClippedMeanParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<ProjectedMeanOutput> {
  if (!Number.isInteger(dimension) || dimension < 1) throw new Error('clippedMean: dimension must be a positive integer');
  return projectedMean(
    points,
    { centre: new Float64Array(dimension), radius: params.clipNorm, sigmaSum: params.sigmaSum, count: params.count },
    random,
  );
}
