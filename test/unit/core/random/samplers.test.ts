import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/random/seededRandom';
import { fillGaussian, sampleExponential, sampleGaussian, sampleGumbel, sampleLaplace, sampleStandardNormal } from '../../../../core/random/samplers';
import { chiSquarePasses, ksCritical, ksStatistic, normalCdf } from './stats';

// Kolmogorov–Smirnov with n = 50,000 draws on fixed seeds; reject at p = 0.001
// (critical D ≈ 1.95/√n ≈ 0.0087). A wrong scale by 2% or a missing tail is far beyond that.
const N = 50_000;
const draw = (f: () => number, n = N): Float64Array => Float64Array.from({ length: n }, f);

describe('continuous samplers: goodness of fit (KS, p = 0.001)', () => {
  it('standard normal (ziggurat)', () => {
    const r = seededRandom(2020);
    const xs = draw(() => sampleStandardNormal(r));
    expect(ksStatistic(xs, normalCdf)).toBeLessThan(ksCritical(N));
  });

  it('N(0, σ²) with σ = 3.7, and fillGaussian', () => {
    const r = seededRandom(7);
    const xs = draw(() => sampleGaussian(r, 3.7));
    expect(ksStatistic(xs, (x) => normalCdf(x / 3.7))).toBeLessThan(ksCritical(N));
    const ys = fillGaussian(r, 0.5, new Float64Array(N));
    expect(ksStatistic(ys, (x) => normalCdf(x / 0.5))).toBeLessThan(ksCritical(N));
  });

  it('normal tails beyond the ziggurat base (|z| > 3.44) have the right mass (chi-square, p = 0.001)', () => {
    // Bins: (−∞,−3.44], (−3.44,−2], (−2,0], (0,2], (2,3.44], (3.44,∞) with 2e6 draws:
    // expected tail counts ≈ 576 each, so a missing or doubled tail is unmistakable.
    const r = seededRandom(31337);
    const edges = [-3.442619855899, -2, 0, 2, 3.442619855899];
    const counts = new Array(6).fill(0);
    const tail: number[] = [];
    const n = 2_000_000;
    for (let i = 0; i < n; i++) {
      const z = sampleStandardNormal(r);
      let b = 0;
      while (b < edges.length && z > edges[b]) b++;
      counts[b]++;
      if (Math.abs(z) > edges[4]) tail.push(Math.abs(z));
    }
    const cdf = [0, ...edges.map(normalCdf), 1];
    const p = counts.map((_, i) => cdf[i + 1] - cdf[i]);
    expect(chiSquarePasses(counts, p).pass).toBe(true);
    // Shape of the tail itself (≈ 1,150 draws): KS against N(0,1) conditioned on |z| > R.
    const R = edges[4];
    const tailCdf = (x: number): number => (normalCdf(x) - normalCdf(R)) / (1 - normalCdf(R));
    expect(ksStatistic(tail, tailCdf)).toBeLessThan(ksCritical(tail.length));
  });

  it('Laplace(b)', () => {
    const r = seededRandom(11);
    const b = 1.3;
    const xs = draw(() => sampleLaplace(r, b));
    const cdf = (x: number): number => (x < 0 ? 0.5 * Math.exp(x / b) : 1 - 0.5 * Math.exp(-x / b));
    expect(ksStatistic(xs, cdf)).toBeLessThan(ksCritical(N));
  });

  it('exponential(scale)', () => {
    const r = seededRandom(12);
    const xs = draw(() => sampleExponential(r, 2.5));
    expect(ksStatistic(xs, (x) => (x <= 0 ? 0 : 1 - Math.exp(-x / 2.5)))).toBeLessThan(ksCritical(N));
  });

  it('Gumbel(scale)', () => {
    const r = seededRandom(13);
    const xs = draw(() => sampleGumbel(r, 0.7));
    expect(ksStatistic(xs, (x) => Math.exp(-Math.exp(-x / 0.7)))).toBeLessThan(ksCritical(N));
  });

  it('rejects invalid scales', () => {
    const r = seededRandom(1);
    expect(() => sampleGaussian(r, 0)).toThrow();
    expect(() => sampleLaplace(r, -1)).toThrow();
    expect(() => sampleExponential(r, Number.NaN)).toThrow();
    expect(() => sampleGumbel(r, Infinity)).toThrow();
  });
});
