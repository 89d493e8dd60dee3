import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/random/seededRandom';
import { bernoulliRational, uniformBigInt, uniformInt, uniformOpen } from '../../../../core/random/uniform';
import { chiSquarePasses, wilson } from './stats';

describe('seededRandom', () => {
  it('is deterministic per seed, differs across seeds, and is marked non-cryptographic', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const xs = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(xs);
    expect(seededRandom('x').nextUint32()).toBe(seededRandom('x').nextUint32());
    expect(seededRandom(1n).nextUint32()).not.toBe(seededRandom('1').nextUint32());
    expect(a.cryptographic).toBe(false);
  });

  it('forks into distinct deterministic streams', () => {
    const f1 = seededRandom(7).fork(1);
    const f2 = seededRandom(7).fork(2);
    expect(seededRandom(7).fork(1).nextUint32()).toBe(f1.nextUint32());
    expect(f1.nextUint32()).not.toBe(f2.nextUint32());
  });

  it('nextUint32 and nextFloat have the right ranges', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = seededRandom(seed);
        for (let i = 0; i < 50; i++) {
          const w = r.nextUint32();
          const f = r.nextFloat();
          if (!(Number.isInteger(w) && w >= 0 && w < 2 ** 32 && f >= 0 && f < 1)) return false;
        }
        return true;
      }),
      { numRuns: 50 },
    );
  });

  it('high bits, low bits and floats are uniform (chi-square, 64 bins, p = 0.001)', () => {
    const r = seededRandom(1234);
    const n = 200_000;
    const high = new Array(64).fill(0);
    const low = new Array(64).fill(0);
    const floats = new Array(64).fill(0);
    for (let i = 0; i < n; i++) {
      const w = r.nextUint32();
      high[w >>> 26]++;
      low[w & 63]++;
      floats[Math.floor(r.nextFloat() * 64)]++;
    }
    const p = new Array(64).fill(1 / 64);
    for (const obs of [high, low, floats]) expect(chiSquarePasses(obs, p).pass).toBe(true);
  });
});

describe('uniform helpers', () => {
  it('uniformInt is unbiased for a non-power-of-two range (chi-square, p = 0.001)', () => {
    const r = seededRandom(99);
    const n = 7;
    const counts = new Array(n).fill(0);
    for (let i = 0; i < 70_000; i++) counts[uniformInt(r, n)]++;
    expect(chiSquarePasses(counts, new Array(n).fill(1 / n)).pass).toBe(true);
    expect(() => uniformInt(r, 0)).toThrow();
    expect(() => uniformInt(r, 1.5)).toThrow();
  });

  it('uniformBigInt covers a range wider than 2^32 uniformly (chi-square on 10 slices)', () => {
    const r = seededRandom(5);
    const n = 3n * 2n ** 40n + 12345n;
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const x = uniformBigInt(r, n);
      expect(x >= 0n && x < n).toBe(true);
      counts[Number((x * 10n) / n)]++;
    }
    expect(chiSquarePasses(counts, new Array(10).fill(0.1)).pass).toBe(true);
  });

  it('uniformOpen never returns 0', () => {
    const r = seededRandom(3);
    for (let i = 0; i < 10_000; i++) expect(uniformOpen(r)).toBeGreaterThan(0);
  });

  it('bernoulliRational hits num/den (Wilson z = 4 interval)', () => {
    const r = seededRandom(11);
    for (const [num, den] of [[1n, 3n], [2n, 7n], [123456789n, 2n ** 70n + 1n], [0n, 5n], [5n, 5n]] as const) {
      const n = 40_000;
      let hits = 0;
      for (let i = 0; i < n; i++) if (bernoulliRational(r, num, den)) hits++;
      const p = Number(num) / Number(den);
      const ci = wilson(hits, n);
      expect(ci.lower).toBeLessThanOrEqual(p);
      expect(ci.upper).toBeGreaterThanOrEqual(p);
    }
  });
});
