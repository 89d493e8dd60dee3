/**
 * RDP of the Poisson-subsampled Gaussian mechanism (add/remove one unit), following
 * Mironov, Talwar & Zhang, "Rényi Differential Privacy of the Sampled Gaussian Mechanism"
 * (2019). With noise multiplier σ (noise std / ℓ2 sensitivity) and sampling rate q,
 *   ε(α) = log A_α / (α − 1),  A_α = E_{z∼N(0,σ²)}[((1 − q) + q·e^{(2z−1)/(2σ²)})^α],
 * the 'remove' direction, which MTZ show dominates the 'add' one, for α > 1.
 */
import { logAddExp, logExpm1 } from '../../math/logSpace';
import { logNormalCdf } from '../../math/normal';

/** RDP at order α > 1 of one Poisson(q)-sampled Gaussian step with noise multiplier σ. */
export function poissonGaussianRdp(alpha: number, q: number, sigma: number): number {
  if (q === 0) return 0;
  if (q === 1) return alpha / (2 * sigma * sigma);
  const logA = Number.isInteger(alpha) ? logAIntegerOrder(alpha, q, sigma) : logAFractionalOrder(alpha, q, sigma);
  return Math.max(0, logA / (alpha - 1));
}

/**
 * Integer α (MTZ's binomial expansion): A_α = Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}. Since the binomial
 * weights sum to one and the k = 0, 1 exponentials are 1,
 *   A_α − 1 = Σ_{k≥2} C(α,k)(1−q)^{α−k} q^k (e^{(k²−k)/(2σ²)} − 1),
 * a sum of positive terms: no cancellation even when A_α − 1 is ~1e-12.
 */
function logAIntegerOrder(alpha: number, q: number, sigma: number): number {
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  const twoVar = 2 * sigma * sigma;
  let logBinom = Math.log(alpha); // log C(α, 1)
  let logAMinus1 = -Infinity;
  for (let k = 2; k <= alpha; k++) {
    logBinom += Math.log((alpha - k + 1) / k);
    const term = logBinom + k * logQ + (alpha - k) * log1mQ + logExpm1((k * k - k) / twoVar);
    logAMinus1 = logAddExp(logAMinus1, term);
  }
  return logAddExp(0, logAMinus1);
}

/** Terms kept after the series has started alternating, before extrapolating the rest. */
const TAIL_TERMS = 48;
/** Levels of Euler (repeated-averaging) acceleration applied to the alternating tail. */
const EULER_LEVELS = 24;
const NEGLIGIBLE = 1e-18;

/**
 * Fractional α (MTZ §3.3). Split the integral at z₀ = σ²·log(1/q − 1) + ½, where
 * q·e^{(2z−1)/(2σ²)} = 1 − q, and expand each side in a binomial series (signed coefficients
 * C(α,k), the exact value, not the |·| upper bound):
 *   A_α = Σ_{k≥0} C(α,k) [ (1−q)^{α−k} q^k e^{(k²−k)/(2σ²)} · ½erfc((k − z₀)/(√2σ))
 *                        + (1−q)^k q^{α−k} e^{(j²−j)/(2σ²)} · ½erfc((z₀ − j)/(√2σ)) ],  j = α − k.
 * Terms are positive for k ≤ ⌊α⌋+1 and alternate in sign after; they are summed scaled by
 * the positive head. The alternating tail decays only polynomially (~k^{−α−2}), so after
 * TAIL_TERMS terms it is extrapolated by Euler's transform (repeated averaging of partial
 * sums; without it the error at α = 1.25 is ~1e-4, with it ~1e-11). The dominant k = 0 term
 * (1−q)^α·Φ(z₀/σ) ≈ 1 − αq is kept apart so that A_α − 1 = expm1(its log) + rest loses only
 * ~1e-16·αq absolutely, not 1e-16.
 */
function logAFractionalOrder(alpha: number, q: number, sigma: number): number {
  const logQ = Math.log(q);
  const log1mQ = Math.log1p(-q);
  const twoVar = 2 * sigma * sigma;
  const z0 = sigma * sigma * (log1mQ - logQ) + 0.5;
  // ½erfc((k − z₀)/(√2σ)) = Φ((z₀ − k)/σ); log Φ keeps full precision when Φ ≈ 1.
  const below = (k: number): number => k * logQ + (alpha - k) * log1mQ + (k * k - k) / twoVar + logNormalCdf((z0 - k) / sigma);
  const above = (k: number): number => {
    const j = alpha - k;
    return j * logQ + k * log1mQ + (j * j - j) / twoVar + logNormalCdf((j - z0) / sigma);
  };

  // Positive head without the leading term below(0): log Σ_{k=1}^{⌊α⌋+1} + above(0).
  const headEnd = Math.floor(alpha) + 1;
  let logHead = above(0);
  let logAbsBinom = Math.log(alpha);
  for (let k = 1; k <= headEnd; k++) {
    logHead = logAddExp(logHead, logAbsBinom + logAddExp(below(k), above(k)));
    logAbsBinom += Math.log(Math.abs(alpha - k) / (k + 1));
  }

  // Alternating tail, relative to the head: partial sums of 1 − u₁ + u₂ − …
  const partial: number[] = [];
  let sum = 1;
  let sign = -1;
  for (let k = headEnd + 1; partial.length < TAIL_TERMS; k++) {
    const u = Math.exp(logAbsBinom + logAddExp(below(k), above(k)) - logHead);
    sum += sign * u;
    partial.push(sum);
    if (u < NEGLIGIBLE) break;
    logAbsBinom += Math.log(Math.abs(alpha - k) / (k + 1));
    sign = -sign;
  }
  const tailFactor = partial.length < TAIL_TERMS ? sum : eulerLimit(partial.slice(-EULER_LEVELS - 1));
  const logRest = logHead + Math.log(tailFactor);
  const leading = below(0);
  if (logRest > 0) return logAddExp(leading, logRest);
  return Math.log1p(Math.exp(logRest) + Math.expm1(leading));
}

/** Limit of an alternating series from its last partial sums by repeated averaging (Euler–Knopp). */
function eulerLimit(partialSums: number[]): number {
  const s = partialSums.slice();
  for (let level = s.length - 1; level > 0; level--) {
    for (let i = 0; i < level; i++) s[i] = (s[i] + s[i + 1]) / 2;
  }
  return s[0];
}
