import { describe, expect, it } from 'vitest';
import { createCryptoRandom, cryptoRandom } from '../../../../core/random/cryptoRandom';

// The CSPRNG cannot be seeded, so these checks use bounds a correct source fails with
// probability < 1e−12 (8 standard deviations), not p = 0.001.
describe('cryptoRandom', () => {
  it('is marked cryptographic and produces values in range across buffer refills', () => {
    expect(cryptoRandom.cryptographic).toBe(true);
    const r = createCryptoRandom(64); // small buffer: exercises thousands of refills
    let sum = 0;
    const n = 100_000;
    const seen = new Set<number>();
    let outOfRange = 0;
    for (let i = 0; i < n; i++) {
      const w = r.nextUint32();
      if (!(w >= 0 && w < 2 ** 32 && Number.isInteger(w))) outOfRange++;
      seen.add(w);
      const f = r.nextFloat();
      if (!(f >= 0 && f < 1)) outOfRange++;
      sum += f;
    }
    expect(outOfRange).toBe(0);
    // Mean of n U(0,1): sd = 1/sqrt(12n) ≈ 0.00091; 8 sd ≈ 0.0073.
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(8 / Math.sqrt(12 * n));
    // Repeated 32-bit words among 1e5 draws: expected ~1.2; > 40 would mean reuse.
    expect(n - seen.size).toBeLessThan(40);
  });

  it('rejects bad buffer sizes', () => {
    expect(() => createCryptoRandom(0)).toThrow();
    expect(() => createCryptoRandom(20_000)).toThrow();
  });
});
