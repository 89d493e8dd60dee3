/**
 * Log-space arithmetic for quantities that overflow or underflow float64: privacy-loss
 * moments at large Rényi orders, Gaussian tails, binomial terms.
 */

/** log(e^a + e^b), exact at ±∞. */
export function logAddExp(a: number, b: number): number {
  const hi = Math.max(a, b);
  const lo = Math.min(a, b);
  if (hi === -Infinity || hi === Infinity) return hi;
  return hi + Math.log1p(Math.exp(lo - hi));
}

/** log(1 − e^x) for x ≤ 0, accurate near 0 and at −∞ (Mächler 2012, "Accurately computing log(1 − exp(−|a|))"). */
export function log1mExp(x: number): number {
  if (x > 0) throw new RangeError(`log1mExp: needs x ≤ 0, got ${x}`);
  return x > -Math.LN2 ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
}

/** log(e^x − 1) for x > 0, without overflow at large x. */
export function logExpm1(x: number): number {
  return x > 1 ? x + Math.log1p(-Math.exp(-x)) : Math.log(Math.expm1(x));
}
