/**
 * The transforms the PLD composition runs on (core/accounting/pld/fft.ts): the complex FFT on
 * sizes past its cache block (passes run block by block, from 2¹⁷ the later stages by columns)
 * still matches the DFT, and the real
 * transforms of half the size (a lone real signal, compose.ts and repeatedComposition.ts) equal
 * the complex transform of the same signal to rounding; spectra are powered bin by bin.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convolvePower, multiplyPower } from '../../../../core/accounting/pld/compose';
import { fft, inverseRealFft, realFft } from '../../../../core/accounting/pld/fft';

/** Bin k of the DFT of (re, im), summed directly. */
function dftBin(re: Float64Array, im: Float64Array, k: number): [number, number] {
  const n = re.length;
  let [sr, si] = [0, 0];
  for (let j = 0; j < n; j++) {
    const angle = (-2 * Math.PI * ((j * k) % n)) / n;
    sr += re[j] * Math.cos(angle) - im[j] * Math.sin(angle);
    si += re[j] * Math.sin(angle) + im[j] * Math.cos(angle);
  }
  return [sr, si];
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>, length = a.length): number => {
  let worst = 0;
  for (let j = 0; j < length; j++) worst = Math.max(worst, Math.abs(a[j] - b[j]));
  return worst;
};

describe('fft beyond its cache block', () => {
  it.each([2, 8, 2048, 4096, 2 ** 13, 2 ** 14, 2 ** 15, 2 ** 17, 2 ** 18])('matches the DFT at size %i and inverts', (n) => {
    const re = Float64Array.from({ length: n }, (_, j) => Math.sin(0.7 * j) + ((j * 7919) % 13) / 13);
    const im = Float64Array.from({ length: n }, (_, j) => Math.cos(1.3 * j) * ((j % 5) - 2));
    const [re0, im0] = [re.slice(), im.slice()];
    fft(re, im);
    for (const k of [0, 1, 15, 16, 4095, 4096, 4097, n / 4 + 3, n / 2, n - 1].filter((k) => k < n)) {
      const [sr, si] = dftBin(re0, im0, k);
      // Sums of n terms of size ~1: the direct sum's own rounding is ~n·1e-16.
      expect(Math.abs(re[k] - sr)).toBeLessThan(1e-14 * n);
      expect(Math.abs(im[k] - si)).toBeLessThan(1e-14 * n);
    }
    fft(re, im, true);
    expect(maxAbsDiff(re, re0)).toBeLessThan(1e-13);
    expect(maxAbsDiff(im, im0)).toBeLessThan(1e-13);
  });
});

describe('real transforms of half the size', () => {
  it('give the complex transform of a real signal (bins 0…N/2) and invert it, for every size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (bits, seed) => {
        const n = 2 ** bits;
        let state = seed;
        const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
        const x = Float64Array.from({ length: n }, () => (next() < 0.2 ? 0 : next()));
        const [re, im] = [x.slice(), new Float64Array(n)];
        fft(re, im);
        const [hr, hi] = [new Float64Array(n / 2 + 1), new Float64Array(n / 2 + 1)];
        realFft(x, hr, hi);
        const scale = 1e-15 * n * Math.max(1, bits);
        expect(maxAbsDiff(hr, re, n / 2 + 1)).toBeLessThan(scale);
        expect(maxAbsDiff(hi, im, n / 2 + 1)).toBeLessThan(scale);
        expect(hi[0]).toBe(0);
        expect(hi[n / 2]).toBe(0);
        const back = new Float64Array(n);
        inverseRealFft(hr, hi, back);
        expect(maxAbsDiff(back, x)).toBeLessThan(1e-15 * Math.max(1, bits) * 4);
      }),
      { numRuns: 60 },
    );
  });

  it('invert a spectrum powered pointwise as the complex inverse does (a composed PMF)', () => {
    const n = 256;
    const x = Float64Array.from({ length: n }, (_, j) => (j < 40 ? Math.exp(-((j - 20) ** 2) / 50) : 0));
    const [hr, hi] = [new Float64Array(n / 2 + 1), new Float64Array(n / 2 + 1)];
    realFft(x, hr, hi);
    // The spectrum cubed: the PMF convolved with itself three times (circularly).
    for (let k = 0; k <= n / 2; k++) {
      const [a, b] = [hr[k], hi[k]];
      const [sr, si] = [a * a - b * b, 2 * a * b];
      [hr[k], hi[k]] = [sr * a - si * b, sr * b + si * a];
    }
    const composed = new Float64Array(n);
    inverseRealFft(hr, hi, composed);
    const [re, im] = [new Float64Array(n), new Float64Array(n)];
    for (let k = 0; k < n; k++) {
      const j = k <= n / 2 ? k : n - k;
      [re[k], im[k]] = [hr[j], k <= n / 2 ? hi[j] : -hi[j]];
    }
    fft(re, im, true);
    expect(maxAbsDiff(composed, re)).toBeLessThan(1e-13);
    let direct = 0; // the threefold convolution at j = 60, summed directly
    for (let a = 0; a < 40; a++) for (let b = 0; b < 40; b++) if (60 - a - b >= 0 && 60 - a - b < 40) direct += x[a] * x[b] * x[60 - a - b];
    expect(composed[60]).toBeCloseTo(direct, 12);
  });
});

describe('spectrum powers (multiplyPower)', () => {
  it('multiply the accumulator by the base count times, leave the base alone, and do nothing for count 0', () => {
    const base = { re: Float64Array.from([1, 0.9, -0.3, 0.5, 1e-130]), im: Float64Array.from([0, 0.2, 0.7, -0.5, 1e-130]) };
    for (const count of [0, 1, 2, 3, 7, 20]) {
      const acc = { re: Float64Array.from([1, 0.5, 1, -0.2, 1]), im: Float64Array.from([0, 0.1, 0, 0.3, 0]) };
      const expected = { re: acc.re.slice(), im: acc.im.slice() };
      for (let i = 0; i < count; i++) {
        for (let k = 0; k < 5; k++) {
          const [r, j] = [expected.re[k] * base.re[k] - expected.im[k] * base.im[k], expected.re[k] * base.im[k] + expected.im[k] * base.re[k]];
          [expected.re[k], expected.im[k]] = [r, j];
        }
      }
      multiplyPower(acc.re, acc.im, base.re, base.im, count);
      for (let k = 0; k < 5; k++) {
        expect(acc.re[k]).toBeCloseTo(expected.re[k], 14);
        expect(acc.im[k]).toBeCloseTo(expected.im[k], 14);
      }
      if (count > 0) expect([acc.re[4], acc.im[4]]).toEqual([0, 0]); // a base of modulus ~1e-130: taken as 0
      else expect([acc.re[4], acc.im[4]]).toEqual([1, 0]);
    }
    expect([...base.re]).toEqual([1, 0.9, -0.3, 0.5, 1e-130]);
  });
});

describe('composition of point masses (convolvePower)', () => {
  it('gives the binomial law, for a pair of signals (one complex transform) and for a lone one (a real transform)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.95, noNaN: true }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: -50, max: 50 }), (p, gap, count, offset) => {
        const size = 4096;
        const atoms = new Float64Array(gap + 1);
        [atoms[0], atoms[gap]] = [1 - p, p];
        const at = offset * count;
        const paired = convolvePower([{ offset, signals: [atoms, atoms], count }], [at, at], size).signals;
        const [lone] = convolvePower([{ offset, signals: [atoms], count }], [at], size).signals;
        for (const composed of [...paired, lone]) {
          let worst = 0;
          for (let i = 0; i <= count; i++) {
            let logChoose = 0;
            for (let j = 1; j <= i; j++) logChoose += Math.log((count - j + 1) / j);
            const binomial = Math.exp(logChoose + i * Math.log(p) + (count - i) * Math.log1p(-p));
            worst = Math.max(worst, Math.abs(composed[i * gap] - binomial));
          }
          expect(worst).toBeLessThan(1e-13);
        }
      }),
      { numRuns: 40 },
    );
  });
});
