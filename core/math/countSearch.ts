/**
 * The largest count n whose value stays within a cap, for a value that does not fall as n
 * grows (ε of n compositions): the n ≥ from with value(n) ≤ cap and value(n + 1) > cap, as
 * an exact search of a monotone predicate finds it. For a value that is not quite monotone
 * (an accountant refined only to 1 %), it returns such a crossing, not necessarily the last.
 *
 * Every value is an accountant call, so the search spends few. It brackets the answer by
 * extrapolating a power law through its last two points (ε grows roughly like a power of
 * the number of compositions), at least doubling once such a law fell short or the value
 * stays flat; then it narrows the bracket by regula falsi (Illinois) on (log n, log value)
 * and bisects (geometrically while the bracket spans more than a factor 4) after two steps
 * in a row that halved it neither in width nor in log-width. That is a handful of calls on
 * smooth values and about 4·log₂(limit) at worst (exponential + binary search: 2·log₂); a
 * `reach` adds one cheap value per bracketing step.
 */

export interface CountSearchInput {
  value: (n: number) => number;
  cap: number;
  /** A count known to stay within the cap, and its value. */
  from: { n: number; value: number };
  /** Largest count searched. */
  limit: number;
  /**
   * A count ≥ n whose value costs little once n's is known (CountedEpsilon: the largest count
   * of the composition that answered n). While bracketing, the search asks it too: the local
   * growth there is measured, and the whole range a costly value paid for is used.
   */
  reach?: (n: number) => number;
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

export function largestWithinCap({ value, cap, from, limit, reach }: CountSearchInput): CountSearch {
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

  // Once a measured power law fell short of the crossing, at least double each step.
  let fellShort = false;
  while (hi === Infinity) {
    if (lo >= limit) return { count: limit, atLimit: true, evaluations };
    const { guess, measured } = extrapolate(lo, valueLo, previous, cap);
    const next = Math.min(limit, Math.max(fellShort ? 2 * lo : lo + 1, Math.round(OVERSHOOT * guess)));
    const v = at(next);
    if (v <= cap) {
      [previous, lo, valueLo] = [{ n: lo, value: valueLo }, next, v];
      fellShort ||= measured;
      const far = Math.min(limit, reach?.(next) ?? next);
      if (far > next) {
        const w = at(far);
        if (w <= cap) [previous, lo, valueLo] = [{ n: next, value: v }, far, w];
        else [hi, valueHi] = [far, w];
      }
    } else [hi, valueHi] = [next, v];
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

/**
 * Where a power law through the last two points reaches the cap (`measured`), or through the
 * last one with the default exponent when the other is missing or at 0; doubling when the
 * value did not rise (no law to follow).
 */
function extrapolate(n: number, v: number, previous: { n: number; value: number } | null, cap: number): { guess: number; measured: boolean } {
  if (!(n > 0 && v > 0)) return { guess: 2 * n, measured: false };
  if (!previous || !(previous.n > 0 && previous.value > 0)) return { guess: n * (cap / v) ** (1 / DEFAULT_EXPONENT), measured: false };
  if (!(v > previous.value)) return { guess: 2 * n, measured: false };
  const exponent = Math.log(v / previous.value) / Math.log(n / previous.n);
  return { guess: n * (cap / v) ** (1 / exponent), measured: true };
}
