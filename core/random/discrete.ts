/**
 * Exact samplers for the discrete Laplace and discrete Gaussian distributions on ℤ
 * (Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020,
 * Algorithms 1–3). All arithmetic is on exact rationals (bigint), all randomness from
 * uniform integers and exact Bernoulli trials, so the output distribution is exactly
 *   discrete Laplace, scale t:     P[Y = y] ∝ exp(−|y|/t)
 *   discrete Gaussian, σ²:         P[Y = y] ∝ exp(−y²/(2σ²))
 * with no floating-point approximation (the parameter given as a double is converted exactly).
 */
import type { RandomSource } from './randomSource';
import { isqrt, rational, toRational, type Rational } from './rational';
import { bernoulliRational, fairCoin, uniformBigInt } from './uniform';

/** Exact Bernoulli(exp(−γ)) for rational γ = num/den ≥ 0 (CKS Algorithm 1). */
export function bernoulliExp(random: RandomSource, gamma: Rational): boolean {
  const { num, den } = gamma;
  if (num < 0n || den <= 0n) throw new Error('bernoulliExp: γ must be ≥ 0');
  // exp(−γ) = exp(−1)^⌊γ⌋ · exp(−(γ − ⌊γ⌋)).
  const whole = num / den;
  for (let i = 0n; i < whole; i++) if (!bernoulliExpUnit(random, 1n, 1n)) return false;
  return bernoulliExpUnit(random, num - whole * den, den);
}

/** Bernoulli(exp(−num/den)) for 0 ≤ num/den ≤ 1: K ← 1; while Bernoulli(γ/K): K++; return K odd. */
function bernoulliExpUnit(random: RandomSource, num: bigint, den: bigint): boolean {
  let k = 1n;
  while (bernoulliRational(random, num, den * k)) k++;
  return (k & 1n) === 1n;
}

function parseScale(name: string, scale: number | Rational): Rational {
  const r = typeof scale === 'number' ? toRational(scale) : rational(scale.num, scale.den);
  if (r.num <= 0n) throw new Error(`${name}: scale must be > 0`);
  return r;
}

/**
 * Discrete Laplace with scale t = num/den (CKS Algorithm 2 with s = den, t = num):
 * P[Y = y] = (1 − e^{−1/t}) / (1 + e^{−1/t}) · e^{−|y|/t}. Returns a bigint.
 */
export function sampleDiscreteLaplaceBig(random: RandomSource, scale: number | Rational): bigint {
  const { num: t, den: s } = parseScale('sampleDiscreteLaplace', scale);
  for (;;) {
    const u = uniformBigInt(random, t);
    if (!bernoulliExp(random, { num: u, den: t })) continue;
    let v = 0n;
    while (bernoulliExp(random, { num: 1n, den: 1n })) v++;
    const y = (u + t * v) / s;
    const negative = fairCoin(random);
    if (negative && y === 0n) continue;
    return negative ? -y : y;
  }
}

/** Discrete Laplace as a number (exact while |y| < 2^53, i.e. always in practice). */
export function sampleDiscreteLaplace(random: RandomSource, scale: number | Rational): number {
  return Number(sampleDiscreteLaplaceBig(random, scale));
}

/**
 * Discrete Gaussian N_ℤ(0, σ²) with σ² = num/den (CKS Algorithm 3): rejection from a
 * discrete Laplace of integer scale t = ⌊σ⌋ + 1, accepting y with probability
 * exp(−(|y| − σ²/t)² / (2σ²)). Returns a bigint.
 */
export function sampleDiscreteGaussianBig(random: RandomSource, sigma2: Rational): bigint {
  const { num, den } = rational(sigma2.num, sigma2.den);
  if (num <= 0n) throw new Error('sampleDiscreteGaussian: σ² must be > 0');
  const t = isqrt(num / den) + 1n; // ⌊σ⌋ + 1, since ⌊√x⌋ = isqrt(⌊x⌋)
  const twoNumTT = 2n * num * t * t;
  for (;;) {
    const y = sampleDiscreteLaplaceBig(random, { num: t, den: 1n });
    const abs = y < 0n ? -y : y;
    // (|y| − σ²/t)² / (2σ²) = (|y|·t·den − num)² / (2·num·t²·den)
    const diff = abs * t * den - num;
    if (bernoulliExp(random, { num: diff * diff, den: twoNumTT * den })) return y;
  }
}

/** Discrete Gaussian with standard-deviation parameter `sigma` (σ² taken exactly as sigma·sigma). */
export function sampleDiscreteGaussian(random: RandomSource, sigma: number): number {
  if (!(sigma > 0) || !Number.isFinite(sigma)) throw new Error(`sampleDiscreteGaussian: sigma must be finite and > 0, got ${sigma}`);
  const s = toRational(sigma);
  return Number(sampleDiscreteGaussianBig(random, { num: s.num * s.num, den: s.den * s.den }));
}
