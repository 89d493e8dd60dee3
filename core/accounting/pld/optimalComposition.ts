/**
 * Exact δ(ε) and ε(δ) of compositions of (ε₀, δᵢ)-DP steps that share one ε₀ (ε₀-DP: δᵢ = 0),
 * in closed form: the PLD accountant answers events made only of such steps here, not on its
 * grid, so a lone (ε₀, δ₀) release is exactly ε₀ at δ = δ₀ and ∞ below it, whatever the FFT's
 * rounding.
 *
 * Each step's dominating pair is randomised response with an atom δᵢ at L = +∞
 * (randomizedResponseLoss), and pairs compose by product. With A = 1 − Π(1 − δᵢ) = P(L = ∞),
 * k steps and p = e^{ε₀}/(1 + e^{ε₀}), the finite loss is ε₀(2j − k), j ~ Binomial(k, p):
 *   δ(ε) = A + (1 − A)·Σ_{j: ε₀(2j−k) > ε} C(k, j)·p^j·(1 − p)^{k−j}·(1 − e^{ε − ε₀(2j−k)}),
 * the optimal composition theorem (Kairouz, Oh & Viswanath 2015, Thm 3.3, stated there at
 * ε = ε₀(k − 2i); Murtagh & Vadhan 2016 for steps of different δᵢ): tight at every ε.
 *
 * Rounding (float64, 2⁻⁵² = ULP): each binomial mass's logarithm is off by at most about
 * ULP·k·(ε₀ + log k + 2) (j·log p + (k − j)·log(1 − p), and log C(k, j) summed with
 * compensation), and the sums add ≤ k + 4 ULP of non-negative terms, so δ's finite part carries
 * the relative allowance `rounding` below; A is exact when at most one step has a δᵢ > 0 (it is
 * that δᵢ, or 0), else within 4(k + 2)·ULP. Masses of positive losses below float64's normal
 * range (long compositions' far tail) are charged 2⁻¹⁰²² each on the upper side. ε is solved on
 * the widened δ (query.ts's epsilonFor, exact between atoms), then widened by 4 ULP, except at an
 * atom itself.
 */
import type { Bounds } from '../accountant';
import type { PrivacyEvent } from '../events';
import { epsilonFor } from './query';

/** Most steps summed here (O(k) time and memory per query); longer compositions stay on the grid. */
export const MAX_CLOSED_FORM_STEPS = 100_000;

const ULP = Number.EPSILON;
const MIN_NORMAL = 2 ** -1022;

export interface SharedEpsilonSteps {
  epsilon0: number;
  /** Number of steps k. */
  count: number;
  /** log Π(1 − δᵢ) = log P(L < ∞). */
  logFinite: number;
  /** A = P(L = ∞). */
  infinityMass: number;
  /** A is exact (no step, or a single step, has δᵢ > 0). */
  exactInfinity: boolean;
}

/**
 * The steps of an event made only of 'pure' and 'approx' releases sharing one ε₀ (composed
 * and in sequence, all under the event's neighbouring relation), or null for any other event
 * (an empty one included): those keep the grid's answer.
 */
export function sharedEpsilonSteps(event: PrivacyEvent): SharedEpsilonSteps | null {
  const leaves: { epsilon: number; delta: number; count: number }[] = [];
  const visit = (e: PrivacyEvent, count: number): boolean => {
    if (e.neighbouring !== event.neighbouring) return false;
    if (count === 0) return true;
    switch (e.kind) {
      case 'pure':
        leaves.push({ epsilon: e.epsilon, delta: 0, count });
        return true;
      case 'approx':
        leaves.push({ epsilon: e.epsilon, delta: e.delta, count });
        return true;
      case 'composed':
        return visit(e.event, count * e.count);
      case 'sequence':
        return e.events.every((child) => visit(child, count));
      default:
        return false;
    }
  };
  if (!visit(event, 1) || leaves.length === 0) return null;
  const epsilon0 = leaves[0].epsilon;
  const count = leaves.reduce((sum, leaf) => sum + leaf.count, 0);
  if (!leaves.every((leaf) => leaf.epsilon === epsilon0) || !(count <= MAX_CLOSED_FORM_STEPS)) return null;
  const withDelta = leaves.filter((leaf) => leaf.delta > 0);
  const logFinite = withDelta.reduce((sum, leaf) => sum + leaf.count * Math.log1p(-leaf.delta), 0);
  const lone = withDelta.length === 0 ? 0 : withDelta.length === 1 && withDelta[0].count === 1 ? withDelta[0].delta : null;
  return { epsilon0, count, logFinite, infinityMass: lone ?? -Math.expm1(logFinite), exactInfinity: lone !== null };
}

/** The composition's δ(ε) and ε(δ) with bounds. */
export function optimalComposition(steps: SharedEpsilonSteps): { delta(epsilon: number): Bounds; epsilon(delta: number): Bounds } {
  const { epsilon0, count: k, logFinite, infinityMass: a } = steps;
  const finite = Math.exp(logFinite);
  const rounding = ULP * (k + 4) * (16 + epsilon0 + Math.log(k + 1) + Math.abs(logFinite));
  const aRounding = steps.exactInfinity ? 0 : 4 * (k + 2) * ULP;
  // Losses (offset + j)·h, j = 0 … k: ε₀(2j − k), exact in float64 for k ≤ 2; from k = 3 on
  // each may be rounded by up to `shift` (|2j − k|·ε₀ ≤ k·ε₀, one rounding of a product),
  // so bounds are taken at ε ∓ shift: a query next to a loss cannot fall on its wrong side.
  const h = 2 * epsilon0;
  const offset = -k / 2;
  const shift = k >= 3 ? 2 * ULP * k * epsilon0 : 0;
  const masses = epsilon0 > 0 ? binomialMasses(k, epsilon0) : null;
  let subnormal = 0;
  if (masses) for (let j = k; j >= 0 && (offset + j) * h > 0; j--) if (masses[j] < MIN_NORMAL) subnormal += MIN_NORMAL;

  /** Σ over losses x > ε of P(x)·(1 − e^{ε−x}) (terms ≥ 0: no cancellation). */
  const finiteDelta = (epsilon: number): number => {
    let sum = 0;
    if (masses) for (let j = k; j >= 0 && (offset + j) * h > epsilon; j--) sum -= masses[j] * Math.expm1(epsilon - (offset + j) * h);
    return sum;
  };
  /** Smallest ε ≥ 0 with infinity + finite·(δ_fin(ε)·widen + slack) ≤ δ. */
  const solve = (delta: number, infinity: number, widen: number, slack: number, outward: number, moved: number): number => {
    const target = ((delta - infinity) / finite - slack) / widen;
    if (!(target >= 0)) return Infinity;
    if (!masses) return 0;
    const epsilon = Math.max(0, epsilonFor(masses, offset, h, 0, target));
    if (moved > 0) return Math.max(0, Math.min(k * epsilon0 * (1 + 2 * ULP), epsilon * outward + moved));
    if (moved < 0) return Math.max(0, epsilon * outward + moved);
    return target > 0 && epsilon > 0 ? Math.min(k * epsilon0, epsilon * outward) : epsilon;
  };
  return {
    delta(epsilon) {
      const part = (at: number) => finite * finiteDelta(at);
      return {
        lower: a * (1 - aRounding) + part(epsilon + shift) * (1 - rounding),
        estimate: Math.min(1, a + part(epsilon)),
        upper: Math.min(1, a * (1 + aRounding) + part(Math.max(0, epsilon - shift)) * (1 + rounding) + finite * subnormal),
      };
    },
    epsilon(delta) {
      const upper = solve(delta, a * (1 + aRounding), 1 + rounding, subnormal, 1 + 4 * ULP, shift);
      const lower = solve(delta, a * (1 - aRounding), 1 - rounding, 0, 1 - 4 * ULP, -shift);
      const estimate = Math.min(upper, Math.max(lower, solve(delta, a, 1, 0, 1, 0)));
      return { lower, estimate, upper };
    },
  };
}

/** C(k, j)·p^j·(1 − p)^{k−j}, j = 0 … k, with p = e^{ε₀}/(1 + e^{ε₀}) (masses below float64's range are 0). */
function binomialMasses(k: number, epsilon0: number): Float64Array {
  const logP = -Math.log1p(Math.exp(-epsilon0));
  const logNotP = logP - epsilon0; // (1 − p)/p = e^{−ε₀}
  const masses = new Float64Array(k + 1);
  // log C(k, j) as a compensated (Neumaier) sum of log((k − j + 1)/j).
  let logChoose = 0;
  let compensation = 0;
  for (let j = 0; j <= k; j++) {
    if (j > 0) {
      const term = Math.log((k - j + 1) / j);
      const sum = logChoose + term;
      compensation += Math.abs(logChoose) >= Math.abs(term) ? logChoose - sum + term : term - sum + logChoose;
      logChoose = sum;
    }
    masses[j] = Math.exp(logChoose + compensation + j * logP + (k - j) * logNotP);
  }
  return masses;
}
