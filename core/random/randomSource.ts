/**
 * Randomness for everything that touches private data.
 *
 * `RandomSource` is injectable so tests can use a seeded source; production code must use
 * `cryptoRandom` (CSPRNG via `globalThis.crypto.getRandomValues`). Never `Math.random`.
 */
export interface RandomSource {
  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number;
  /** Uniform double in [0, 1) with 53 random bits. */
  nextFloat(): number;
  /** True for the CSPRNG; false for deterministic sources (tests, non-private experiments). */
  readonly cryptographic: boolean;
}
