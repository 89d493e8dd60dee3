/**
 * The largest count n whose value stays within a cap, for a value that does not fall as n
 * grows (ε of n compositions): the n ≥ from with value(n) ≤ cap and value(n + 1) > cap, as
 * an exact search of a monotone predicate finds it.
 *
 * Every value is an accountant call, so the search spends few. It brackets the answer by
 * extrapolating a power law through its last two points (ε grows roughly like a power of
 * the number of compositions), then narrows the bracket by regula falsi (Illinois) on
 * (log n, log value) and bisects (geometrically while the bracket spans more than a factor
 * 4) after two steps in a row that halved it neither in width nor in log-width, so it needs
 * about 3·log₂(limit) calls at worst and a handful on smooth values.
 */

export interface CountSearchInput {
  value: (n: number) => number;
  cap: number;
  /** A count known to stay within the cap, and its value. */
  from: { n: number; value: number };
  /** Largest count searched. */
  limit: number;
}

export interface CountSearch {
  count: number;
  /** True when `count` is the limit: at least that many stay within the cap. */
  atLimit: boolean;
  /** Values computed. */
  evaluations: number;
}

/** Growth exponent assumed before two points with positive values are known (ε ∝ √n). */
const DEFAULT_EXPONENT = 0.5;
/** Aim this far past the extrapolated crossing, so a good extrapolation brackets it at once. */
const OVERSHOOT = 1.1;

export function largestWithinCap({ value, cap, from, limit }: CountSearchInput): CountSearch {
  if (!(from.value <= cap)) throw new RangeError(`largestWithinCap: the starting count ${from.n} exceeds the cap`);
  let evaluations = 0;
  const at = (n: number): number => {
    evaluations++;
    return value(n);
  };
  let lo = from.n;
  let valueLo = from.value;
  let previous: { n: number; value: number } | null = null;
  let hi = Infinity;
  let valueHi = Infinity;

  while (hi === Infinity) {
    if (lo >= limit) return { count: limit, atLimit: true, evaluations };
    const next = Math.min(limit, Math.max(lo + 1, Math.round(OVERSHOOT * extrapolate(lo, valueLo, previous, cap))));
    const v = at(next);
    if (v <= cap) [previous, lo, valueLo] = [{ n: lo, value: valueLo }, next, v];
    else [hi, valueHi] = [next, v];
  }

  let gapLo = Math.log(valueLo / cap);
  let gapHi = Math.log(valueHi / cap);
  let side = 0;
  let slowSteps = 0;
  while (hi - lo > 1) {
    const [width, ratio] = [hi - lo, hi / lo];
    const interpolates = slowSteps < 2 && lo > 0 && Number.isFinite(gapLo) && Number.isFinite(gapHi) && gapHi > gapLo;
    const guess = interpolates
      ? Math.exp(Math.log(lo) + (gapLo * Math.log(ratio)) / (gapLo - gapHi))
      : lo > 0 && ratio > 4 ? Math.sqrt(lo * hi) : lo + width / 2;
    const n = Math.min(hi - 1, Math.max(lo + 1, Math.round(guess)));
    const v = at(n);
    if (v <= cap) {
      [lo, gapLo] = [n, Math.log(v / cap)];
      if (side === 1) gapHi /= 2;
      side = 1;
    } else {
      [hi, gapHi] = [n, Math.log(v / cap)];
      if (side === -1) gapLo /= 2;
      side = -1;
    }
    // Progress: the bracket halved in width or in log-width.
    const halved = hi - lo <= width / 2 || (lo > 0 && Math.log(hi / lo) <= Math.log(ratio) / 2);
    slowSteps = halved ? 0 : slowSteps + 1;
  }
  return { count: lo, atLimit: false, evaluations };
}

/** Where a power law through the last two points reaches the cap (doubling when there is no such law). */
function extrapolate(n: number, v: number, previous: { n: number; value: number } | null, cap: number): number {
  if (!(n > 0 && v > 0)) return 2 * n;
  const measured = previous && previous.n > 0 && previous.value > 0 && v > previous.value ? Math.log(v / previous.value) / Math.log(n / previous.n) : NaN;
  const exponent = measured > 0 ? measured : DEFAULT_EXPONENT;
  return n * (cap / v) ** (1 / exponent);
}
