/**
 * Root bracketing for monotone functions: grow a bracket geometrically, then bisect to an
 * explicit relative tolerance. Used for ε(δ) of the Gaussian and for noise calibration.
 */

export interface Bracket {
  /** f(lo) is on the starting side of the root, f(hi) on the far side. */
  lo: number;
  hi: number;
}

/**
 * For `past(x)` monotone in x > 0 (false below the root, true above), a bracket [lo, hi]
 * with past(hi) and !past(lo), hi − lo ≤ tolerance·hi. Grows from `start` by doubling or
 * halving; lo = 0 when even `floor` is past the root.
 */
export function bisectPositive(past: (x: number) => boolean, start: number, tolerance: number, floor = 1e-300, ceiling = 1e300): Bracket {
  let lo = start;
  let hi = start;
  if (past(start)) {
    do {
      hi = lo;
      lo /= 2;
      if (lo < floor) return { lo: 0, hi };
    } while (past(lo));
  } else {
    do {
      lo = hi;
      hi *= 2;
      if (hi > ceiling) throw new RangeError(`no root below ${ceiling}`);
    } while (!past(hi));
  }
  while (hi - lo > tolerance * hi) {
    const mid = (lo + hi) / 2;
    if (past(mid)) hi = mid;
    else lo = mid;
  }
  return { lo, hi };
}
