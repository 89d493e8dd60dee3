/**
 * A deterministic `RandomSource` for TESTS AND EXPLICITLY NON-PRIVATE EXPERIMENTS ONLY.
 *
 * xoshiro128** 1.1 (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
 * ACM TOMS 2021): 128-bit state, period 2^128 − 1, fast 32-bit arithmetic in JS. Seeded
 * by hashing the seed into the 128-bit state with a SplitMix32-style mixer, so nearby seeds
 * give unrelated streams. Its output is predictable from a few outputs: it must never drive
 * noise or sampling for a real release (ARCHITECTURE §3–4). `cryptographic` is false so
 * callers can refuse it.
 */
import type { RandomSource } from './randomSource';

export interface SeededRandomSource extends RandomSource {
  readonly cryptographic: false;
  /** An independent-looking child stream (for splitting work deterministically). */
  fork(label: number): SeededRandomSource;
}

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;

/** SplitMix32-style mixer (bijective 32-bit finaliser). */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

/** Hash an arbitrary seed (number, bigint or string) to four 32-bit state words. */
function seedState(seed: number | bigint | string): [number, number, number, number] {
  let text: string;
  if (typeof seed === 'number') {
    if (!Number.isFinite(seed)) throw new Error('seededRandom: seed must be finite');
    text = `n:${seed}`;
  } else if (typeof seed === 'bigint') text = `b:${seed}`;
  else text = `s:${seed}`;
  const words: [number, number, number, number] = [0, 0, 0, 0];
  for (let lane = 0; lane < 4; lane++) {
    let h = mix32(0x9e3779b9 + lane * 0x85ebca6b);
    for (let i = 0; i < text.length; i++) h = mix32((h ^ text.charCodeAt(i)) + 0x9e3779b9);
    words[lane] = mix32(h + text.length);
  }
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
  return words;
}

class Xoshiro128 implements SeededRandomSource {
  readonly cryptographic = false as const;
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(state: [number, number, number, number]) {
    [this.s0, this.s1, this.s2, this.s3] = state;
  }

  nextUint32(): number {
    const s1 = this.s1;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  nextFloat(): number {
    const a = this.nextUint32() >>> 5; // 27 bits
    const b = this.nextUint32() >>> 6; // 26 bits
    return (a * TWO_POW_26 + b) / TWO_POW_53;
  }

  fork(label: number): SeededRandomSource {
    const base = this.nextUint32();
    return new Xoshiro128(seedState(`fork:${base}:${label}`));
  }
}

/**
 * Deterministic generator from `seed`. Tests and non-private experiments only — never for
 * noise or subsampling of a real release (use `cryptoRandom`).
 */
export function seededRandom(seed: number | bigint | string): SeededRandomSource {
  return new Xoshiro128(seedState(seed));
}
