/**
 * DP few-shot generation (Tang et al., "Privacy-Preserving In-Context Learning with
 * Differentially Private Few-Shot Generation", ICLR 2024, Algorithm 1) — the aggregation
 * of one token step. Neighbouring: add/remove one privacy unit of the pool; one unit
 * changes one teacher's probability vector (see teacherEnsemble.ts).
 *
 * - Gaussian: sum of teacher vectors, ℓ2 sensitivity √2, N(0, σ²) per coordinate, release
 *   the argmax (post-processing). Step event: PoissonSampled(q, Gaussian(σ, √2)).
 * - Exponential: the sum's ℓ∞ sensitivity is 1; report-noisy-max with Exp(2/ε) noise
 *   (≡ permute-and-flip, Ding et al. 2021) is ε-DP for non-monotone scores.
 *   Step event: PoissonSampled(q, PureDp(ε)).
 */
import { gaussian, poissonSampled, pureDp, type PrivacyEvent } from '../accounting/events';
import { reportNoisyMaxExponential, reportNoisyMaxGaussian } from '../mechanisms/reportNoisyMax';
import type { TokenAggregator } from './tokenAggregator';
import { sumVectors } from './teacherEnsemble';

export type TangNoise = { kind: 'gaussian'; sigma: number } | { kind: 'exponential'; epsilon: number };

export const SUM_L2_SENSITIVITY = Math.SQRT2;
export const SUM_LINF_SENSITIVITY = 1;

/** The noiseless core of the step: what the noise protects. */
function teacherSum(vectors: readonly Float64Array[]): Float64Array {
  if (vectors.length === 0) throw new Error('no teachers');
  return sumVectors(vectors, vectors[0].length);
}

export function tangAggregator(noise: TangNoise): TokenAggregator {
  const base: PrivacyEvent =
    noise.kind === 'gaussian' ? gaussian(noise.sigma, SUM_L2_SENSITIVITY) : pureDp(noise.epsilon);
  return {
    method: 'dp-few-shot',
    choose: (vectors, random) =>
      noise.kind === 'gaussian'
        ? reportNoisyMaxGaussian(teacherSum(vectors), { sigma: noise.sigma, l2Sensitivity: SUM_L2_SENSITIVITY }, random).output
        : reportNoisyMaxExponential(teacherSum(vectors), { epsilon: noise.epsilon, sensitivity: SUM_LINF_SENSITIVITY }, random).output,
    stepEvent: (q) => poissonSampled(q, base),
  };
}
