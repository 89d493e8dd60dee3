/**
 * The default `RandomSource`: the platform CSPRNG (`globalThis.crypto.getRandomValues`,
 * Web Crypto; available in Node ≥ 19, Electron and browsers). Words are fetched in blocks
 * and handed out once each, which makes per-sample cost a few nanoseconds instead of a
 * system call. A buffered word is never reused.
 */
import type { RandomSource } from './randomSource';

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;
/** getRandomValues accepts at most 65,536 bytes per call. */
const MAX_WORDS = 16384;

export class CryptoRandomSource implements RandomSource {
  readonly cryptographic = true as const;
  private readonly buffer: Uint32Array<ArrayBuffer>;
  private position: number;

  constructor(bufferWords = 4096) {
    if (!Number.isInteger(bufferWords) || bufferWords < 1 || bufferWords > MAX_WORDS) {
      throw new Error(`CryptoRandomSource: bufferWords must be an integer in [1, ${MAX_WORDS}]`);
    }
    if (typeof globalThis.crypto?.getRandomValues !== 'function') {
      throw new Error('CryptoRandomSource: globalThis.crypto.getRandomValues is not available');
    }
    this.buffer = new Uint32Array(bufferWords);
    this.position = bufferWords; // empty: filled on first use
  }

  nextUint32(): number {
    if (this.position >= this.buffer.length) {
      globalThis.crypto.getRandomValues(this.buffer);
      this.position = 0;
    }
    const word = this.buffer[this.position];
    this.buffer[this.position++] = 0; // consumed words do not linger in memory
    return word;
  }

  nextFloat(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * TWO_POW_26 + b) / TWO_POW_53;
  }
}

/** A fresh CSPRNG source with its own buffer. */
export function createCryptoRandom(bufferWords?: number): CryptoRandomSource {
  return new CryptoRandomSource(bufferWords);
}

/** The shared CSPRNG source: the default for every mechanism and every sampling step. */
export const cryptoRandom: RandomSource = new CryptoRandomSource();
