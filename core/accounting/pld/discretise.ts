/**
 * Discretisation of a privacy-loss distribution onto the grid {i·h}, for both bounds.
 *
 * Upper ("connect the dots", Doroshenko et al. 2022): write u = e^{−L}; the composed
 * δ(ε) = E[(1 − e^ε·Π uᵢ)₊] is convex and non-increasing in each uᵢ of independent steps,
 * so splitting each grid cell's mass between its two end points with E[u] kept (a
 * mean-preserving spread) can only raise δ(ε), for every ε and every composition. Mass
 * above the top goes to +∞ by the same rule (δ(top) of it); mass below the bottom is
 * rounded up. The error is O(h²) per step, against O(h) for rounding losses up.
 *
 * Lower (a test set): label every output by its cell, L̂ = ⌈L/h⌉·h − c. For any set S of
 * label sums, P^T(S) − e^ε·Q^T(S) ≤ δ_T(ε) (the hockey-stick divergence is a supremum over
 * events), so Σ_{s∈S} (P^T(ΣL̂ = s) − e^ε·Q^T(ΣL̂ = s)) is a certified lower bound. It needs
 * the label laws under P (cell masses) and under Q, the latter tilted by e^{L̂} to stay in
 * range: e^{ε_k + h − c}·Q(cell k) = e^{h−c}·(P_k − G_k); the shift c = log E_P[e^{⌈L/h⌉h − L}]
 * ∈ [0, h) keeps label sums centred on loss sums, so the tilt does not grow with T. Also
 * O(h²): only label classes straddling ε lose; atoms on grid points are labelled exactly.
 *
 * Cell quantities from tails and δ at grid points, without cancellation:
 *   P_k = P(L ∈ (ε_k, ε_k + h]),  G_k = E_P[1 − e^{ε_k−L}; cell] ∈ [0, (1 − e^{−h})·P_k].
 */
import type { LossDistribution } from './lossDistribution';

/** A discrete PLD on the grid: masses[j] sits at loss (offset + j)·h; plus P(L = ∞). */
export interface DiscretePld {
  offset: number;
  masses: Float64Array;
  infinityMass: number;
}

export interface Discretisation {
  /** Connect-the-dots PLD (pessimistic). */
  upper: DiscretePld;
  /** Law of the label under P: masses[j] = P(L ∈ (y_j − h, y_j]), y_j = (offset + j)·h; y₀ takes L ≤ y₀, the top L > top. */
  labelsP: DiscretePld;
  /** e^{y_j − c}·Q(same cell). */
  labelsQ: Float64Array;
  /** The label of cell j is y_j − labelShift. */
  labelShift: number;
}

/**
 * The grid cannot represent this loss distribution in float64 (a loss quantity overflowed to
 * NaN, or no negligible tail within 10⁷ nats): the accountant refuses the event (UnsupportedByPldError)
 * rather than truncate it, which could under-charge.
 */
export class GridRangeError extends RangeError {
  constructor(reason: string) {
    super(`PLD grid: ${reason}`);
    this.name = 'GridRangeError';
  }
}

/** Losses [lo, hi] outside which the distribution carries less than `budget` of δ / of P-mass. */
export function lossRange(dist: LossDistribution, budget: number): { lo: number; hi: number } {
  const hi = Math.min(dist.maxLoss, walkToTail((x) => dist.at(x).finiteDelta, budget, Math.max(0, dist.minLoss), 1));
  const massBelow = (x: number): number => 1 - dist.infinityMass - dist.at(x).survival;
  const lo = Number.isFinite(dist.minLoss) ? dist.minLoss : walkToTail(massBelow, budget, hi, -1);
  return { lo, hi: Math.max(hi, lo) };
}

/** Where the monotone f falls to ≤ target, walking from `start` in `direction` (doubling, then bisection). */
function walkToTail(f: (x: number) => number, target: number, start: number, direction: 1 | -1): number {
  let inside = 0;
  let outside = 1 / 64;
  // NaN counts as "not yet negligible": a loss quantity that overflowed must not end the walk early.
  const above = (x: number): boolean => !(f(x) <= target);
  while (above(start + direction * outside)) {
    inside = outside;
    outside *= 2;
    if (outside > 1e7) throw new GridRangeError('the privacy-loss distribution has no negligible tail within 10⁷ nats, or its tail overflows float64');
  }
  for (let i = 0; i < 60 && outside - inside > 1e-9 * (1 + Math.abs(start) + outside); i++) {
    const mid = (inside + outside) / 2;
    if (above(start + direction * mid)) inside = mid;
    else outside = mid;
  }
  return start + direction * outside;
}

export function discretise(dist: LossDistribution, h: number, range: { lo: number; hi: number }): Discretisation {
  const first = Math.floor(range.lo / h);
  const n = Math.max(first + 1, Math.ceil(range.hi / h)) - first + 1;
  const survival = new Float64Array(n);
  const delta = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const point = dist.at((first + j) * h);
    survival[j] = point.survival;
    delta[j] = point.finiteDelta;
  }
  const kappa = -Math.expm1(-h);
  const decay = Math.exp(-h);
  const top = n - 1;
  const upper = new Float64Array(n);
  const labelsP = new Float64Array(n);
  const labelsQ = new Float64Array(n);
  // Below the bottom: rounded up (upper); label y₀ with all of Q there (lower: more Q is safe).
  // Where the bottom is a truncation (P-mass below it within the tail budget), e^{y₀}·Q(L ≤ y₀)
  // can overflow (y₀ of hundreds of nats): those outcomes are left out of every test set
  // instead (labels P and Q both 0 there), which costs the lower bound at most that P-mass.
  const below = Math.max(0, 1 - dist.infinityMass - survival[0]);
  upper[0] = below;
  if (!(range.lo > dist.minLoss)) {
    labelsP[0] = below;
    labelsQ[0] = Math.exp(first * h) * Math.max(0, 1 - dist.at(first * h).survivalQ);
  }
  const growth = Math.exp(h);
  for (let k = 0; k < top; k++) {
    const mass = Math.max(0, survival[k] - survival[k + 1]);
    const pull = Math.min(kappa * mass, Math.max(0, delta[k] - decay * delta[k + 1] - kappa * survival[k + 1]));
    upper[k + 1] += pull / kappa;
    upper[k] += Math.max(0, mass - pull / kappa);
    labelsP[k + 1] += mass;
    labelsQ[k + 1] += growth * (mass - pull);
  }
  // Above the top: e^{top}·Q(L > top) = P(L > top) − (δ(top) − P(∞)).
  const tiltedQ = Math.max(0, survival[top] - delta[top]);
  upper[top] += tiltedQ;
  labelsP[top] += survival[top];
  labelsQ[top] += tiltedQ;
  let [sumQ, sumP] = [0, 0];
  for (let j = 0; j < n; j++) {
    sumQ += labelsQ[j];
    sumP += labelsP[j];
  }
  const labelShift = Math.log(sumQ / sumP);
  const scale = Math.exp(-labelShift);
  for (let j = 0; j < n; j++) labelsQ[j] *= scale;
  return {
    upper: { offset: first, masses: upper, infinityMass: dist.infinityMass + delta[top] },
    labelsP: { offset: first, masses: labelsP, infinityMass: dist.infinityMass },
    labelsQ,
    labelShift,
  };
}
