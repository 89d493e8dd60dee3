/**
 * Ball-projected mean: project every point onto the ℓ2 ball B(c, R) around a centre c that
 * is public or was released earlier (never computed from this step's private data), then
 * release a noisy centred sum and divide by a count.
 *
 *   S = Σᵢ (Π_B(xᵢ) − c),   ‖Π_B(x) − c‖₂ ≤ R.
 *
 * Neighbouring and sensitivity (state which one you account!):
 * - add/remove one unit (Veil's default): S changes by one term, Δ₂(S) = R; the count n is
 *   private too, released with Gaussian noise (sensitivity 1). Event:
 *   sequence([gaussian(σ_sum, R), gaussian(σ_count, 1)]) — two Gaussians on the same data,
 *   composed exactly by the accountants (σ_eff = ((σ_sum/R)⁻² + σ_count⁻²)^(−1/2)).
 * - replace-one with a public n: S changes by the difference of two terms, Δ₂(S) = 2R.
 *   Event: gaussian(σ_sum, 2R) with relation 'replace-one'.
 * ARCHITECTURE §4 quotes ℓ2 2R for the sum of points clipped to a ball: that is the
 * replace-one figure (or a conservative add/remove figure for an uncentred formulation);
 * with the centred sum above, add/remove needs only R.
 * Used for the mean step after GoodRadius (Nissim, Stemmer & Vadhan 2016; AdaDPSyn, Gao et
 * al., ICLR 2025). Output: c + (S + noise)/max(ñ, 1).
 */
import type { PrivacyEvent } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { sampleStandardNormal } from '../random/samplers';
import { requireFinite, requirePositive, type MechanismResult } from './types';

export type MeanCount =
  /** add/remove: the count is private and released with N(0, sigma²). */
  | { kind: 'noisy'; sigma: number }
  /** replace-one: the count n is public (e.g. a fixed, published sample size). */
  | { kind: 'public'; n: number };

export interface ProjectedMeanParams {
  /** Public or previously released centre (dimension of the points). */
  centre: ArrayLike<number>;
  radius: number;
  /** Noise on each coordinate of the centred sum. */
  sigmaSum: number;
  count: MeanCount;
}

export interface ProjectedMeanOutput {
  mean: Float64Array;
  /** The noisy sum S + noise (centred on `centre`) and the count used, for reports. */
  noisySum: Float64Array;
  count: number;
}

/** Π_B(x) − c: the offset of x's projection onto B(c, R) from c. Writes into `out`. */
export function projectedOffset(x: ArrayLike<number>, centre: ArrayLike<number>, radius: number, out: Float64Array): Float64Array {
  let norm2 = 0;
  for (let j = 0; j < out.length; j++) {
    out[j] = x[j] - centre[j];
    norm2 += out[j] * out[j];
  }
  const norm = Math.sqrt(norm2);
  if (norm > radius) for (let j = 0; j < out.length; j++) out[j] *= radius / norm;
  return out;
}

/** Σᵢ (Π_B(xᵢ) − c), the statistic whose sensitivity is stated above. */
export function centredProjectedSum(points: readonly ArrayLike<number>[], centre: ArrayLike<number>, radius: number): Float64Array {
  const dim = centre.length;
  const sum = new Float64Array(dim);
  const offset = new Float64Array(dim);
  for (const x of points) {
    if (x.length !== dim) throw new Error(`point of dimension ${x.length}, centre of dimension ${dim}`);
    requireFinite('point', x);
    projectedOffset(x, centre, radius, offset);
    for (let j = 0; j < dim; j++) sum[j] += offset[j];
  }
  return sum;
}

export function projectedMeanEvent(params: Pick<ProjectedMeanParams, 'radius' | 'sigmaSum' | 'count'>): PrivacyEvent {
  if (params.count.kind === 'public') {
    return { kind: 'gaussian', sigma: params.sigmaSum, sensitivity: 2 * params.radius, neighbouring: 'replace-one' };
  }
  return {
    kind: 'sequence',
    events: [
      { kind: 'gaussian', sigma: params.sigmaSum, sensitivity: params.radius, neighbouring: 'add-remove' },
      { kind: 'gaussian', sigma: params.count.sigma, sensitivity: 1, neighbouring: 'add-remove' },
    ],
    neighbouring: 'add-remove',
  };
}

export function projectedMean(
  points: readonly ArrayLike<number>[],
  params: ProjectedMeanParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<ProjectedMeanOutput> {
  requirePositive('radius', params.radius);
  requirePositive('sigmaSum', params.sigmaSum);
  requireFinite('centre', params.centre);
  if (params.count.kind === 'noisy') requirePositive('count.sigma', params.count.sigma);
  else if (!Number.isInteger(params.count.n) || params.count.n < 1 || params.count.n !== points.length) {
    throw new Error('projectedMean: a public count must equal the (public) number of points');
  }
  const noisySum = centredProjectedSum(points, params.centre, params.radius);
  for (let j = 0; j < noisySum.length; j++) noisySum[j] += params.sigmaSum * sampleStandardNormal(random);
  const count = params.count.kind === 'public' ? params.count.n : points.length + params.count.sigma * sampleStandardNormal(random);
  const divisor = Math.max(count, 1);
  const mean = new Float64Array(noisySum.length);
  for (let j = 0; j < mean.length; j++) mean[j] = params.centre[j] + noisySum[j] / divisor;
  return { output: { mean, noisySum, count }, event: projectedMeanEvent(params) };
}
