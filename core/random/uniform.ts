/**
 * Exact uniform building blocks on top of a `RandomSource`: unbiased integers in [0, n)
 * (rejection, no modulo bias), big integers, open-interval doubles and exact Bernoulli
 * trials with rational success probability (lazy comparison of a uniform's binary
 * expansion with p, 32 bits at a time; exact, expected ~1 word per trial).
 */
import type { RandomSource } from './randomSource';

const TWO_POW_32 = 4294967296;

/** Uniform integer in {0, …, n−1} for 1 ≤ n ≤ 2^32, without modulo bias. */
export function uniformInt(random: RandomSource, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) throw new Error(`uniformInt: n must be an integer in [1, 2^32], got ${n}`);
  if (n === TWO_POW_32) return random.nextUint32();
  // Accept words below the largest multiple of n that fits in 2^32.
  const limit = TWO_POW_32 - (TWO_POW_32 % n);
  for (;;) {
    const word = random.nextUint32();
    if (word < limit) return word % n;
  }
}

/** Uniform double in the open interval (0, 1): safe for log(). */
export function uniformOpen(random: RandomSource): number {
  for (;;) {
    const u = random.nextFloat();
    if (u > 0) return u;
  }
}

/** Uniform bigint in {0, …, n−1} for n ≥ 1 (rejection on the bit length; ≤ 2 tries expected). */
export function uniformBigInt(random: RandomSource, n: bigint): bigint {
  if (n < 1n) throw new Error('uniformBigInt: n must be ≥ 1');
  if (n <= BigInt(TWO_POW_32)) return BigInt(uniformInt(random, Number(n)));
  const bits = (n - 1n).toString(2).length;
  const words = Math.ceil(bits / 32);
  const excess = BigInt(words * 32 - bits);
  for (;;) {
    let x = 0n;
    for (let i = 0; i < words; i++) x = (x << 32n) | BigInt(random.nextUint32());
    x >>= excess;
    if (x < n) return x;
  }
}

/**
 * Exact Bernoulli(num/den) for integers 0 ≤ num ≤ den, den ≥ 1.
 * Compares a uniform U ∈ [0,1) with p = num/den one 32-bit digit at a time (base 2^32):
 * the first differing digit decides U < p. Terminates after one word with prob. 1 − 2^−32.
 */
export function bernoulliRational(random: RandomSource, num: bigint, den: bigint): boolean {
  if (den < 1n || num < 0n || num > den) throw new Error('bernoulliRational: need 0 ≤ num ≤ den, den ≥ 1');
  if (num === den) return true;
  if (num === 0n) return false;
  let remainder = num;
  for (;;) {
    remainder <<= 32n;
    const digit = remainder / den;
    remainder -= digit * den;
    const word = BigInt(random.nextUint32());
    if (word < digit) return true;
    if (word > digit) return false;
    if (remainder === 0n) return false; // U's remaining digits ≥ 0 = p's: U ≥ p
  }
}

/** Fair coin. */
export function fairCoin(random: RandomSource): boolean {
  return (random.nextUint32() & 1) === 1;
}

/** k items drawn uniformly without replacement (all of them, shuffled, when k ≥ n): partial Fisher–Yates. */
export function sampleWithoutReplacement<T>(random: RandomSource, items: readonly T[], k: number): T[] {
  const pool = [...items];
  const n = Math.min(k, pool.length);
  for (let j = 0; j < n; j++) {
    const pick = j + uniformInt(random, pool.length - j);
    [pool[j], pool[pick]] = [pool[pick], pool[j]];
  }
  return pool.slice(0, n);
}
