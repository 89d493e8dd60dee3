/**
 * RDP amplification by sampling WITHOUT replacement: a fixed-size subset of m of n units
 * (γ = m/n), replace-one neighbouring. Wang, Balle & Kasiviswanathan, "Subsampled Rényi
 * Differential Privacy and Analytical Moments Accountant" (AISTATS 2019), Thm 9 (the general
 * bound, valid for any base mechanism), for integers α ≥ 2:
 *   ε'(α) ≤ 1/(α−1)·log( 1 + γ²C(α,2)·min{4(e^{ε(2)}−1), e^{ε(2)}·min{2, (e^{ε(∞)}−1)²}}
 *                         + Σ_{j=3}^{α} γ^j C(α,j) e^{(j−1)ε(j)} min{2, (e^{ε(∞)}−1)^j} ).
 * Fractional α: the cumulant (α−1)ε'(α) is convex with value 0 at α = 1, so linear
 * interpolation between neighbouring integers is an upper bound (WBK 2019, Cor. 10).
 * For the Gaussian mechanism, Thm 27 (the tighter, Gaussian-specific bound, as in autodp's
 * improved_bound_flag and dp_accounting) also allows, for j ≥ 3, the term
 *   γ^j C(α,j)·4·√(M_{2⌊j/2⌋}·M_{2⌈j/2⌉}),  M_m = E_Q[(P/Q − 1)^m] (even m; gaussianMoments.ts),
 * each term being the smaller of the two; used for m ≤ 256, Thm 9's terms beyond (as dp_accounting).
 * As in autodp, the result is also capped by the base mechanism's own ε(α) (subsampling never
 * hurts) and by the amplified pure-DP bound log(1 + γ(e^{ε(∞)} − 1)) (Balle, Barthe &
 * Gaboardi 2018, "Privacy amplification by subsampling", Table 1, substitution relation).
 */
import { logAddExp, logExpm1 } from '../../math/logSpace';

export interface BaseMechanismRdp {
  /** ε(α) of the base mechanism (replace-one), asked for integers ≥ 2 and the requested orders. */
  rdp(alpha: number): number;
  /** ε(∞), i.e. its pure-DP ε; Infinity when it has none (Gaussian). */
  epsilonInfinity: number;
  /** For a Gaussian base mechanism: m ↦ log E_Q[(P/Q − 1)^m] at even m (enables Thm 27). */
  logEvenMoment?: (m: number) => number;
}

/** Largest moment order of Thm 27's terms. */
const MAX_MOMENT = 256;
const LN4 = Math.log(4);

/** Thm 9 (with Thm 27's terms when the base mechanism gives its moments) at an integer order α ≥ 2. */
function integerOrderBound(alpha: number, gamma: number, base: BaseMechanismRdp): number {
  const logGamma = Math.log(gamma);
  const logEInfMinus1 = base.epsilonInfinity === Infinity ? Infinity : logExpm1(base.epsilonInfinity);
  const eps2 = base.rdp(2);
  let logBinom = Math.log((alpha * (alpha - 1)) / 2);
  let logSum = 2 * logGamma + logBinom + Math.min(LN4 + logExpm1(eps2), eps2 + Math.min(Math.LN2, 2 * logEInfMinus1));
  for (let j = 3; j <= alpha; j++) {
    logBinom += Math.log((alpha - j + 1) / j);
    let term = (j - 1) * base.rdp(j) + Math.min(Math.LN2, j * logEInfMinus1);
    const [low, high] = [2 * Math.floor(j / 2), 2 * Math.ceil(j / 2)];
    if (base.logEvenMoment && high <= MAX_MOMENT) term = Math.min(term, LN4 + (base.logEvenMoment(low) + base.logEvenMoment(high)) / 2);
    logSum = logAddExp(logSum, j * logGamma + logBinom + term);
  }
  return logAddExp(0, logSum) / (alpha - 1);
}

/** ε'(α) at each order α > 1 for the base mechanism run on a without-replacement sample. */
export function withoutReplacementCurve(orders: readonly number[], gamma: number, base: BaseMechanismRdp): number[] {
  const cap = Math.log1p(gamma * Math.expm1(base.epsilonInfinity));
  const memo = new Map<number, number>();
  const atInteger = (n: number): number => {
    let value = memo.get(n);
    if (value === undefined) memo.set(n, (value = Math.min(integerOrderBound(n, gamma, base), base.rdp(n), cap)));
    return value;
  };
  return orders.map((alpha) => Math.min(interpolate(alpha, atInteger), base.rdp(alpha), cap));
}

/** Upper bound at α from integer orders via convexity of the cumulant K(n) = (n−1)ε(n), K(1) = 0. */
function interpolate(alpha: number, atInteger: (n: number) => number): number {
  const lo = Math.floor(alpha);
  const hi = Math.max(2, Math.ceil(alpha));
  if (lo === hi) return atInteger(lo);
  const cumulant = (n: number): number => (n === 1 ? 0 : (n - 1) * atInteger(n));
  const t = alpha - lo;
  return ((1 - t) * cumulant(lo) + t * cumulant(hi)) / (alpha - 1);
}
