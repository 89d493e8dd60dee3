/**
 * The FFT window for a composition and the mass it may leave outside, by Chernoff bounds
 * on the discrete PMFs (Koskela et al. 2021, "Tight differential privacy for discrete-valued
 * mechanisms and for the subsampled Gaussian mechanism using FFT"; the composed-domain
 * choice of Gopi, Lee & Wutschitz 2021, "Numerical composition of differential privacy"):
 *   P(S ≥ b) ≤ exp(K(λ) − λb),  P(S ≤ b) ≤ exp(K(−λ) + λb),  K(λ) = Σ_c n_c·log E[e^{λ L_c}],
 * with λ chosen per edge to make the window as small as the tail budget allows.
 */
import type { DiscretePld } from './discretise';
import { nextPowerOfTwo } from './fft';

export interface WeightedPld {
  pld: DiscretePld;
  count: number;
}

/** log Σ mⱼ·e^{λ(offset+j)h}, summed from the dominant end (no overflow, no false underflow). */
export function logMgf(pld: DiscretePld, h: number, lambda: number): number {
  const { masses, offset } = pld;
  let first = 0;
  let last = masses.length - 1;
  while (first <= last && !(masses[first] > 0)) first++;
  while (last >= first && !(masses[last] > 0)) last--;
  if (first > last) return -Infinity;
  const step = Math.exp(-Math.abs(lambda) * h);
  // Terms more than UNDERFLOW / (|λ|h) points from the dominant end are below float64's range.
  const count = Math.min(last - first, Math.ceil(UNDERFLOW / (Math.abs(lambda) * h))) + 1;
  if (lambda >= 0) return Math.log(dampedSum(masses, last, -1, count, step)) + lambda * (offset + last) * h;
  return Math.log(dampedSum(masses, first, 1, count, step)) + lambda * (offset + first) * h;
}

/** −log of the smallest positive float64 (subnormal), rounded up. */
const UNDERFLOW = 745.2;

/** Σ_{k < count} masses[start + direction·k]·step^k, in four interleaved chains (no serial dependency on one sum). */
function dampedSum(masses: Float64Array, start: number, direction: 1 | -1, count: number, step: number): number {
  const step4 = step * step * step * step;
  let f0 = 1;
  let f1 = step;
  let f2 = step * step;
  let f3 = f2 * step;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const end = start + direction * (count - (count % 4));
  let j = start;
  if (direction === 1) {
    for (; j < end; j += 4) {
      s0 += masses[j] * f0;
      s1 += masses[j + 1] * f1;
      s2 += masses[j + 2] * f2;
      s3 += masses[j + 3] * f3;
      f0 *= step4;
      f1 *= step4;
      f2 *= step4;
      f3 *= step4;
    }
  } else {
    for (; j > end; j -= 4) {
      s0 += masses[j] * f0;
      s1 += masses[j - 1] * f1;
      s2 += masses[j - 2] * f2;
      s3 += masses[j - 3] * f3;
      f0 *= step4;
      f1 *= step4;
      f2 *= step4;
      f3 *= step4;
    }
  }
  for (let k = count % 4; k > 0; k--, j += direction, f0 *= step) s0 += masses[j] * f0;
  return s0 + s1 + (s2 + s3);
}

const cumulant = (parts: WeightedPld[], h: number, lambda: number): number =>
  parts.reduce((sum, p) => sum + p.count * logMgf(p.pld, h, lambda), 0);

/** Bound on P(S ≥ b) (side 1) or P(S ≤ b) (side −1) at a given λ > 0. */
function tailBound(parts: WeightedPld[], h: number, lambda: number, side: 1 | -1, b: number): number {
  return Math.exp(cumulant(parts, h, side * lambda) - side * lambda * b);
}

/** Variance of a discrete PLD's finite part, normalised, in grid units (0 when it has no finite mass). */
export function gridVariance(pld: DiscretePld): number {
  let total = 0;
  let first = 0;
  let second = 0;
  const { masses } = pld;
  for (let j = 0; j < masses.length; j++) {
    const m = masses[j];
    total += m;
    first += m * j;
    second += m * j * j;
  }
  return total > 0 ? Math.max(0, second / total - (first / total) ** 2) : 0;
}

/** Standard deviation of the composed PLD (its finite part, normalised). */
function spread(parts: WeightedPld[], h: number): number {
  let variance = 0;
  for (const { pld, count } of parts) variance += count * gridVariance(pld);
  return Math.max(1, Math.sqrt(variance)) * h;
}

/**
 * The edge b on `side` with P(beyond b) ≤ tail, minimised over λ (b(λ) = ±(K(±λ) − log tail)/λ
 * is unimodal in log λ): a coarse ladder of λ, then golden-section refinement.
 */
function edge(parts: WeightedPld[], h: number, tail: number, side: 1 | -1): { at: number; lambda: number } {
  const logTail = Math.log(tail);
  const at = (logLambda: number): number => {
    const lambda = Math.exp(logLambda);
    return (side * (cumulant(parts, h, side * lambda) - logTail)) / lambda;
  };
  const better = (a: number, b: number): boolean => (side === 1 ? a < b : a > b);
  const start = Math.log(Math.sqrt(-2 * logTail) / spread(parts, h));
  let best = start;
  let bestValue = at(start);
  for (let j = -12; j <= 12; j += 2) {
    const value = at(start + j);
    if (better(value, bestValue)) [best, bestValue] = [start + j, value];
  }
  let lo = best - 2;
  let hi = best + 2;
  const ratio = (Math.sqrt(5) - 1) / 2;
  let a = hi - ratio * (hi - lo);
  let b = lo + ratio * (hi - lo);
  let valueA = at(a);
  let valueB = at(b);
  for (let i = 0; i < 16; i++) {
    if (better(valueA, valueB)) {
      [hi, b, valueB] = [b, a, valueA];
      a = hi - ratio * (hi - lo);
      valueA = at(a);
    } else {
      [lo, a, valueA] = [a, b, valueB];
      b = lo + ratio * (hi - lo);
      valueB = at(b);
    }
  }
  const [chosen, value] = better(valueA, bestValue) ? [a, valueA] : [best, bestValue];
  return { at: value, lambda: Math.exp(chosen) };
}

/** Grid indices [bottom, top] holding all but `tail` of the composed mass on each side. */
export interface Edges {
  bottom: number;
  top: number;
  /** The λ of each edge's bound (tails at the final window edges reuse them). */
  lambdaUp: number;
  lambdaDown: number;
}

export function edges(parts: WeightedPld[], h: number, tail: number): Edges {
  const up = edge(parts, h, tail, 1);
  const down = edge(parts, h, tail, -1);
  return { bottom: Math.floor(down.at / h), top: Math.ceil(up.at / h), lambdaUp: up.lambda, lambdaDown: down.lambda };
}

/** FFT size holding every given edge pair. */
export function windowSize(all: Edges[]): number {
  return nextPowerOfTwo(Math.max(...all.map((e) => e.top - e.bottom + 1)));
}

/** Window start centring [bottom, top] in `size` points. */
export function windowOffset(e: Edges, size: number): number {
  return e.bottom - Math.floor((size - (e.top - e.bottom + 1)) / 2);
}

/** Mass the composition leaves above and below the window [offset, offset + size). */
export function windowTails(parts: WeightedPld[], h: number, e: Edges, offset: number, size: number): { above: number; below: number } {
  return {
    above: tailBound(parts, h, e.lambdaUp, 1, (offset + size) * h),
    below: tailBound(parts, h, e.lambdaDown, -1, (offset - 1) * h),
  };
}
