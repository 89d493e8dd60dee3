/**
 * Report-noisy-max: release only the index of the largest noisy score.
 *
 * Gaussian noise: argmax(s + N(0, σ² I)) is post-processing of the Gaussian mechanism on the
 * whole score vector, so it is charged gaussian(σ, Δ₂) with Δ₂ the ℓ2 sensitivity of the
 * score vector (e.g. √2 for a teacher vote histogram or a sum of teacher distributions,
 * ARCHITECTURE §4). Used by Tang et al. (ICLR 2024) for DP few-shot generation.
 *
 * Exponential noise: argmax(s + Exp(scale 2Δ∞/ε)) is ε-DP and has exactly the output
 * distribution of permute-and-flip (McKenna & Sheldon, NeurIPS 2020; Ding, Kifer, Saghaian,
 * Steinke, Wang, Xiao & Zhang, "The permute-and-flip mechanism is identical to
 * report-noisy-max with exponential noise", 2021). Δ∞ = max per-score change; scale Δ∞/ε
 * when scores are monotone. Event: pure(ε).
 *
 * Neighbouring: as stated by the caller (default add/remove one unit).
 * Candidate set: data-independent, as for every exponential-type mechanism.
 */
import type { Neighbouring } from '../accounting/events';
import { cryptoRandom } from '../random/cryptoRandom';
import type { RandomSource } from '../random/randomSource';
import { sampleStandardNormal } from '../random/samplers';
import { uniformOpen } from '../random/uniform';
import { requireFinite, requirePositive, type MechanismResult } from './types';

export interface GaussianNoisyMaxParams {
  sigma: number;
  /** ℓ2 sensitivity of the whole score vector. */
  l2Sensitivity: number;
  neighbouring?: Neighbouring;
}

export function reportNoisyMaxGaussian(
  scores: ArrayLike<number>,
  params: GaussianNoisyMaxParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<number> {
  requirePositive('sigma', params.sigma);
  requirePositive('l2Sensitivity', params.l2Sensitivity);
  requireFinite('scores', scores);
  if (scores.length === 0) throw new Error('reportNoisyMaxGaussian: no candidates');
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < scores.length; i++) {
    const value = scores[i] + params.sigma * sampleStandardNormal(random);
    if (value > bestValue) {
      bestValue = value;
      best = i;
    }
  }
  return {
    output: best,
    event: { kind: 'gaussian', sigma: params.sigma, sensitivity: params.l2Sensitivity, neighbouring: params.neighbouring ?? 'add-remove' },
  };
}

export interface ExponentialNoisyMaxParams {
  epsilon: number;
  /** ℓ∞ sensitivity: the most any single score changes between neighbours. */
  sensitivity: number;
  monotone?: boolean;
  neighbouring?: Neighbouring;
}

export function reportNoisyMaxExponential(
  scores: ArrayLike<number>,
  params: ExponentialNoisyMaxParams,
  random: RandomSource = cryptoRandom,
): MechanismResult<number> {
  requirePositive('epsilon', params.epsilon);
  requirePositive('sensitivity', params.sensitivity);
  requireFinite('scores', scores);
  if (scores.length === 0) throw new Error('reportNoisyMaxExponential: no candidates');
  const scale = ((params.monotone ? 1 : 2) * params.sensitivity) / params.epsilon;
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < scores.length; i++) {
    const value = scores[i] - scale * Math.log(uniformOpen(random));
    if (value > bestValue) {
      bestValue = value;
      best = i;
    }
  }
  return { output: best, event: { kind: 'pure', epsilon: params.epsilon, neighbouring: params.neighbouring ?? 'add-remove' } };
}
