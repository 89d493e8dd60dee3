/**
 * Even central moments of the Gaussian mechanism's likelihood ratio (the Pearson–Vajda
 * χ^m divergences that Wang, Balle & Kasiviswanathan 2019, Thm 27, use):
 *   M_m = E_Q[(P/Q − 1)^m],  P = N(μ, 1), Q = N(0, 1),  P/Q = e^{x}, x = μz − μ²/2,  m even.
 * Exactly, M_m = Σ_l C(m,l)(−1)^{m−l}·e^{l(l−1)μ²/2} (the forward differences dp_accounting and
 * autodp evaluate), but that alternating sum cancels catastrophically for small μ (it is
 * ~μ^m·(m−1)!! against terms of size C(m, m/2)), and a value rounded low would under-charge.
 * We integrate the positive integrand f(z) = φ(z)·|e^{x} − 1|^m instead. On each side of its
 * zero z₀ = μ/2, log f = −z²/2 + m·log|e^{x} − 1| + c is concave with curvature ≤ −1, so each
 * side has one peak z* (found by bisection on the derivative) and f(z) ≤ f(z*)·e^{−(z−z*)²/2}:
 * the trapezoid rule on z* ± 12 (step 1/64, ≥ 64 points per unit of width; the rule converges
 * geometrically for such analytic bumps) leaves out ≤ 1e-31 of the mass.
 */
import { logAddExp } from '../../math/logSpace';

const WINDOW = 12;
const STEP = 1 / 64;
const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** m ↦ log M_m for μ = Δ/σ (memoised per m). */
export function gaussianLogEvenMoment(mu: number): (m: number) => number {
  const memo = new Map<number, number>();
  return (m) => {
    if (!(m >= 2 && m % 2 === 0)) throw new RangeError(`gaussianLogEvenMoment: m must be even and ≥ 2, got ${m}`);
    let value = memo.get(m);
    if (value === undefined) memo.set(m, (value = logMoment(mu, m)));
    return value;
  };
}

function logMoment(mu: number, m: number): number {
  const zero = mu / 2;
  const x = (z: number): number => mu * z - (mu * mu) / 2;
  const logF = (z: number): number => -0.5 * z * z - LOG_SQRT_2PI + m * Math.log(Math.abs(Math.expm1(x(z))));
  // d/dz log f = −z + mμ·e^x/(e^x − 1): decreasing on each side of z₀.
  const slope = (z: number): number => -z - (m * mu) / Math.expm1(-x(z));
  return logAddExp(side(zero, 1), side(zero, -1));

  /** log ∫ f over the side z₀ + direction·(0, ∞). */
  function side(start: number, direction: 1 | -1): number {
    let inside = 0;
    let outside = 1;
    while (direction * slope(start + direction * outside) > 0) [inside, outside] = [outside, 2 * outside];
    for (let i = 0; i < 100 && outside - inside > 1e-12 * outside; i++) {
      const mid = (inside + outside) / 2;
      if (direction * slope(start + direction * mid) > 0) inside = mid;
      else outside = mid;
    }
    const peak = start + direction * inside;
    const from = direction === 1 ? Math.max(start, peak - WINDOW) : peak - WINDOW;
    const to = direction === 1 ? peak + WINDOW : Math.min(start, peak + WINDOW);
    const n = Math.max(2, Math.ceil((to - from) / STEP));
    const h = (to - from) / n;
    const top = logF(peak);
    let sum = 0;
    for (let i = 0; i <= n; i++) {
      const value = Math.exp(logF(from + i * h) - top);
      sum += i === 0 || i === n ? value / 2 : value;
    }
    return top + Math.log(sum * h);
  }
}
