/**
 * δ(ε) and ε(δ) of a discrete PLD with masses pⱼ at losses xⱼ = (offset + j)·h and P(L=∞):
 *   δ(ε) = P(L = ∞) + Σ_{xⱼ > ε} pⱼ·(1 − e^{ε − xⱼ})   (Meiser & Mohammadi 2018).
 * Scanning down from the top with Dₖ = Σ_{j>k} pⱼ(1 − e^{xₖ−xⱼ}) and Eₖ = Σ_{j≥k} pⱼe^{xₖ−xⱼ}
 * (both sums of non-negative terms: no cancellation, no overflow at any ε); between grid
 * points δ(ε) = P(∞) + Dₖ − Eₖ·expm1(ε − xₖ) exactly, so ε(δ) is solved in closed form.
 */

/** δ(ε) of the discrete PLD. */
export function deltaAt(masses: Float64Array, offset: number, h: number, infinityMass: number, epsilon: number): number {
  const n = masses.length;
  const k = Math.max(0, Math.ceil(epsilon / h - offset - 1e-9));
  if (k >= n) return infinityMass;
  const decay = Math.exp(-h);
  const kappa = -Math.expm1(-h);
  let d = 0;
  let e = 0;
  for (let j = n - 1; j >= k; j--) {
    d += kappa * e;
    e = masses[j] + decay * e;
  }
  return Math.min(1, infinityMass + d - e * Math.expm1(epsilon - (offset + k) * h));
}

/** Smallest ε with δ(ε) ≤ target: Infinity when target < P(L = ∞), −Infinity when every ε qualifies. */
export function epsilonFor(masses: Float64Array, offset: number, h: number, infinityMass: number, target: number): number {
  if (target < infinityMass) return Infinity;
  const decay = Math.exp(-h);
  const kappa = -Math.expm1(-h);
  let d = 0;
  let e = 0;
  for (let k = masses.length - 1; k >= 0; k--) {
    const nextD = d + kappa * e;
    if (infinityMass + nextD > target) return (offset + k + 1) * h + Math.log1p((infinityMass + d - target) / e);
    d = nextD;
    e = masses[k] + decay * e;
  }
  const gap = (infinityMass + d - target) / e;
  return gap > -1 ? offset * h + Math.log1p(gap) : -Infinity;
}

/** Composed label laws: masses at label sums xⱼ = (offset + j)·h − shift. */
export interface LabelSums {
  a: Float64Array;
  b: Float64Array;
  offset: number;
  shift: number;
  infinityMass: number;
  /** Loss sums of a label class lie in (xⱼ − below, xⱼ + shift]. */
  below: number;
  /** Per-bin rounding levels of a and b (the transforms' largest negative values). */
  noiseA: number;
  noiseB: number;
}

/**
 * The test-set lower bound δ(ε) ≥ P(∞) + Σ_{j∈S} (aⱼ − e^{ε−xⱼ}·bⱼ) with aⱼ = P(ΣL̂ = xⱼ) and
 * bⱼ = e^{xⱼ}·Q(ΣL̂ = xⱼ) (discretise.ts), valid for every set S of label sums; each term is
 * charged its worst rounding, noiseA + e^{ε−xⱼ}·noiseB. Label minus loss sums are
 * sub-Gaussian within (−below, shift] with standard deviation ≤ h√T/2, and `reach` covers
 * about 5 of them: S takes every class above ε + reach (their losses lie above ε; at most
 * `below` is needed), none at or below ε − reach (losses below ε), and the positive terms
 * in between.
 */
export function labelDelta(sums: LabelSums, h: number, reach: number): (epsilon: number) => number {
  const { a, b, offset, shift, infinityMass, below, noiseA, noiseB } = sums;
  const n = a.length;
  const decay = Math.exp(-h);
  const sumA = new Float64Array(n + 1);
  const sumB = new Float64Array(n + 1); // Σ_{j≥k} (b_j + noiseB) e^{x_k − x_j}
  for (let k = n - 1; k >= 0; k--) {
    sumA[k] = sumA[k + 1] + a[k] - noiseA;
    sumB[k] = b[k] + noiseB + decay * sumB[k + 1];
  }
  const x = (j: number): number => (offset + j) * h - shift;
  const firstAbove = (y: number): number => Math.min(n, Math.max(0, Math.floor((y + shift) / h - offset) + 1));
  return (epsilon) => {
    const sure = firstAbove(epsilon + Math.min(below, reach));
    let delta = infinityMass + sumA[sure] - (sure < n ? Math.exp(epsilon - x(sure)) * sumB[sure] : 0);
    let j = firstAbove(epsilon - reach);
    for (let weight = Math.exp(epsilon - x(j)); j < sure; j++, weight *= decay) delta += Math.max(0, a[j] - noiseA - weight * (b[j] + noiseB));
    return Math.min(1, Math.max(0, delta));
  };
}
