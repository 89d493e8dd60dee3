/**
 * Exact non-negative rationals as bigint pairs, for the exact discrete samplers. Every finite
 * double is a dyadic rational m·2^e, so `toRational` converts a parameter given as a number
 * without any rounding: the sampler then samples exactly the distribution that number names.
 */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

export function rational(num: bigint, den: bigint): Rational {
  if (den === 0n) throw new Error('rational: zero denominator');
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/** The exact value of a finite double as a reduced fraction. */
export function toRational(x: number): Rational {
  if (!Number.isFinite(x)) throw new Error(`toRational: ${x} is not finite`);
  if (Number.isInteger(x)) return { num: BigInt(x), den: 1n };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const exponentBits = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (exponentBits === 0) exponent = -1074; // subnormal
  else {
    mantissa |= 1n << 52n;
    exponent = exponentBits - 1075;
  }
  // x = sign · mantissa · 2^exponent with exponent < 0 here (x is not an integer).
  return rational(sign * mantissa, 1n << BigInt(-exponent));
}

/** floor(sqrt(n)) for n ≥ 0 (Newton's method on bigints, started above the root). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new Error('isqrt: negative');
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2)); // ≥ √n
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
