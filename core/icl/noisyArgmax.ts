/**
 * Noisy argmax over the summed teacher vectors, the release step of DP few-shot generation.
 * Gaussian: N(0, σ²) on each coordinate (ℓ2 sensitivity √2 accounted by the caller's event).
 * Exponential: Exp(scale 2Δ∞/ε) on each coordinate with Δ∞ = 1 — report-noisy-max with
 * exponential noise, ε-DP for non-monotone utilities (McKenna & Sheldon 2020; Ding et al. 2021).
 */
import type { RandomSource } from '../random/randomSource';
import { sampleExponential, sampleStandardNormal } from '../random/samplers';
import type { TangNoise } from './dpFewShot';

export function reportNoisyMax(sum: Float64Array, noise: TangNoise, random: RandomSource): number {
  let best = -1;
  let bestValue = -Infinity;
  for (let i = 0; i < sum.length; i++) {
    const value =
      noise.kind === 'gaussian'
        ? sum[i] + noise.sigma * sampleStandardNormal(random)
        : sum[i] + sampleExponential(random, 2 / noise.epsilon);
    if (value > bestValue) {
      bestValue = value;
      best = i;
    }
  }
  return best;
}
