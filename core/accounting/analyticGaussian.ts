/**
 * The analytic Gaussian mechanism (Balle & Wang, "Improving the Gaussian Mechanism for
 * Differential Privacy: Analytical Calibration and Optimal Denoising", ICML 2018, Thm 8):
 * adding N(0, σ²) to a query of ℓ2 sensitivity Δ is (ε, δ)-DP exactly for
 *   δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ),
 * and calibration inverts this by bisection (δ falls strictly in both σ and ε).
 */
import { log1mExp } from '../math/logSpace';
import { erfcx, logNormalCdf } from '../math/normal';

function requirePositive(name: string, value: number): void {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`analytic Gaussian: ${name} must be finite and > 0, got ${value}`);
}

function requireProbability(name: string, value: number): void {
  if (!(value > 0 && value < 1)) throw new RangeError(`analytic Gaussian: ${name} must be in (0, 1), got ${value}`);
}

/**
 * log δ(ε), finite far below the float64 range (δ = 1e-5564 is fine). With a = Δ/(2σ),
 * b = εσ/Δ and 2ab = ε, for b > a both terms share the factor e^{−(b−a)²/2}:
 *   δ = ½·e^{−(b−a)²/2}·(erfcx((b−a)/√2) − erfcx((b+a)/√2)),
 * which avoids subtracting two underflowing tails. For b ≤ a, Φ(a − b) ≥ ½ and the direct
 * form is accurate.
 */
export function analyticGaussianLogDelta(epsilon: number, sigma: number, sensitivity = 1): number {
  if (!(epsilon >= 0)) throw new RangeError(`analytic Gaussian: ε must be ≥ 0, got ${epsilon}`);
  requirePositive('sigma', sigma);
  requirePositive('sensitivity', sensitivity);
  if (epsilon === Infinity) return -Infinity;
  const a = sensitivity / (2 * sigma);
  const b = (epsilon * sigma) / sensitivity;
  if (b <= a) {
    const first = logNormalCdf(a - b);
    return first + log1mExp(Math.min(0, epsilon + logNormalCdf(-a - b) - first));
  }
  const gap = erfcx((b - a) * Math.SQRT1_2) - erfcx((b + a) * Math.SQRT1_2);
  return -((b - a) * (b - a)) / 2 + Math.log(gap / 2);
}

/** δ(ε) of the Gaussian mechanism (underflows to 0 below ~1e-308; use the log form there). */
export function analyticGaussianDelta(epsilon: number, sigma: number, sensitivity = 1): number {
  return Math.exp(analyticGaussianLogDelta(epsilon, sigma, sensitivity));
}

export interface CalibrationOptions {
  /** Bisection stops when the bracket is narrower than this fraction of its upper end. */
  relativeTolerance?: number;
}

/**
 * Relative safety margin on the target δ: the bisection aims at δ·(1 − 1e-10), so the
 * returned parameter meets the target even with the ~1e-13 relative rounding error of δ(ε).
 */
const LOG_MARGIN = Math.log1p(-1e-10);

/**
 * Bisection for a decreasing g on (0, ∞): returns x with g(x) ≤ 0, within `tolerance`
 * (relative) of the root. Brackets by doubling/halving from `start`.
 */
function bisectDecreasing(g: (x: number) => number, start: number, tolerance: number): number {
  let hi = start;
  while (g(hi) > 0) {
    hi *= 2;
    if (hi > 1e300) throw new RangeError('analytic Gaussian: no bracket found (target unreachable)');
  }
  let lo = hi / 2;
  while (g(lo) <= 0) {
    hi = lo;
    lo /= 2;
    if (lo < 1e-300) return hi;
  }
  while (hi - lo > tolerance * hi) {
    const mid = (lo + hi) / 2;
    if (g(mid) > 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Smallest noise σ (to `relativeTolerance`, default 1e-12) for which the Gaussian mechanism
 * with ℓ2 sensitivity Δ is (ε, δ)-DP. Never returns a σ whose δ(ε) exceeds the target.
 */
export function analyticGaussianSigma(epsilon: number, delta: number, sensitivity = 1, options: CalibrationOptions = {}): number {
  if (!(epsilon >= 0) || !Number.isFinite(epsilon)) throw new RangeError(`analytic Gaussian: ε must be finite and ≥ 0, got ${epsilon}`);
  requireProbability('delta', delta);
  requirePositive('sensitivity', sensitivity);
  const target = Math.log(delta) + LOG_MARGIN;
  const ratio = bisectDecreasing((s) => analyticGaussianLogDelta(epsilon, s, 1) - target, 1, options.relativeTolerance ?? 1e-12);
  return ratio * sensitivity;
}

/**
 * Smallest ε (to `relativeTolerance`, default 1e-12) for which the Gaussian mechanism with
 * noise σ and ℓ2 sensitivity Δ is (ε, δ)-DP; 0 when δ(0) already meets δ.
 */
export function analyticGaussianEpsilon(sigma: number, delta: number, sensitivity = 1, options: CalibrationOptions = {}): number {
  requireProbability('delta', delta);
  const target = Math.log(delta) + LOG_MARGIN;
  const g = (epsilon: number): number => analyticGaussianLogDelta(epsilon, sigma, sensitivity) - target;
  if (g(0) <= 0) return 0;
  return bisectDecreasing(g, 1, options.relativeTolerance ?? 1e-12);
}
