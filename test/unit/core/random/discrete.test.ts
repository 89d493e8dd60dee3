import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bernoulliExp, sampleDiscreteGaussian, sampleDiscreteGaussianBig, sampleDiscreteLaplace } from '../../../../core/random/discrete';
import { isqrt, toRational } from '../../../../core/random/rational';
import { seededRandom } from '../../../../core/random/seededRandom';
import { chiSquarePasses, wilson } from './stats';

/** Exact pmf on [−L, L] (mass outside is < 1e−12 for the L used), normalised numerically. */
function pmfTable(logWeight: (y: number) => number, L: number): { values: number[]; p: number[] } {
  const values: number[] = [];
  const w: number[] = [];
  for (let y = -L; y <= L; y++) {
    values.push(y);
    w.push(Math.exp(logWeight(y)));
  }
  const total = w.reduce((a, b) => a + b, 0);
  return { values, p: w.map((x) => x / total) };
}

function histogram(samples: number[], values: number[]): number[] {
  const index = new Map(values.map((v, i) => [v, i]));
  const counts = new Array(values.length).fill(0);
  for (const s of samples) {
    const i = index.get(s);
    if (i === undefined) throw new Error(`sample ${s} outside the table`);
    counts[i]++;
  }
  return counts;
}

describe('exact rationals', () => {
  it('toRational is exact and reduced (den a power of two)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((x) => x === 0 || Math.abs(x) > 1e-250), (x) => {
        const { num, den } = toRational(x);
        const isPow2 = (den & (den - 1n)) === 0n;
        return isPow2 && Number(num) === x * Number(den) && (den === 1n || num % 2n !== 0n);
      }),
      { numRuns: 300 },
    );
    expect(toRational(0.1)).toEqual({ num: 3602879701896397n, den: 36028797018963968n });
    expect(toRational(-5e-324)).toEqual({ num: -1n, den: 2n ** 1074n }); // smallest subnormal
  });

  it('isqrt is the exact floor square root', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 200n }), (n) => {
        const r = isqrt(n);
        return r * r <= n && (r + 1n) * (r + 1n) > n;
      }),
      { numRuns: 200 },
    );
  });
});

describe('exact Bernoulli(exp(−γ)) (CKS Algorithm 1)', () => {
  it('matches exp(−γ) for γ in {0, 1/3, 1, 2.7, 5} (Wilson z = 4 intervals)', () => {
    const r = seededRandom(17);
    for (const gamma of [0, 1 / 3, 1, 2.7, 5]) {
      const g = toRational(gamma);
      const n = 40_000;
      let hits = 0;
      for (let i = 0; i < n; i++) if (bernoulliExp(r, g)) hits++;
      const ci = wilson(hits, n);
      expect(ci.lower).toBeLessThanOrEqual(Math.exp(-gamma));
      expect(ci.upper).toBeGreaterThanOrEqual(Math.exp(-gamma));
    }
  });
});

// Chi-square against the exact pmf, 30,000 draws each, bins merged to expected ≥ 5, p = 0.001.
describe('discrete Laplace (CKS Algorithm 2): pmf ∝ exp(−|y|/t)', () => {
  for (const t of [0.4, 1, 2.5, 7.3]) {
    it(`scale ${t}`, () => {
      const r = seededRandom(`dlap-${t}`);
      const { values, p } = pmfTable((y) => -Math.abs(y) / t, Math.ceil(40 * t) + 5);
      const samples = Array.from({ length: 30_000 }, () => sampleDiscreteLaplace(r, t));
      const res = chiSquarePasses(histogram(samples, values), p);
      expect(res.stat, JSON.stringify(res)).toBeLessThanOrEqual(res.critical);
    });
  }

  it('accepts an exact rational scale (5/3)', () => {
    const r = seededRandom('dlap-rational');
    const t = 5 / 3;
    const { values, p } = pmfTable((y) => -Math.abs(y) / t, 80);
    const samples = Array.from({ length: 20_000 }, () => sampleDiscreteLaplace(r, { num: 5n, den: 3n }));
    expect(chiSquarePasses(histogram(samples, values), p).pass).toBe(true);
  });
});

describe('discrete Gaussian (CKS Algorithm 3): pmf ∝ exp(−y²/(2σ²))', () => {
  for (const sigma of [0.6, 1, 3.3, 12]) {
    it(`σ = ${sigma}`, () => {
      const r = seededRandom(`dgauss-${sigma}`);
      const { values, p } = pmfTable((y) => -(y * y) / (2 * sigma * sigma), Math.ceil(8 * sigma) + 3);
      const samples = Array.from({ length: 30_000 }, () => sampleDiscreteGaussian(r, sigma));
      const res = chiSquarePasses(histogram(samples, values), p);
      expect(res.stat, JSON.stringify(res)).toBeLessThanOrEqual(res.critical);
    });
  }

  it('takes σ² as an exact rational and returns bigints', () => {
    const r = seededRandom('dgauss-rational');
    const sigma2 = 7 / 2;
    const { values, p } = pmfTable((y) => -(y * y) / (2 * sigma2), 20);
    const samples = Array.from({ length: 20_000 }, () => Number(sampleDiscreteGaussianBig(r, { num: 7n, den: 2n })));
    expect(chiSquarePasses(histogram(samples, values), p).pass).toBe(true);
  });

  it('outputs are integers and symmetric in law (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 50, noNaN: true }), fc.integer(), (sigma, seed) => {
        const r = seededRandom(seed);
        for (let i = 0; i < 20; i++) if (!Number.isInteger(sampleDiscreteGaussian(r, sigma))) return false;
        return true;
      }),
      { numRuns: 40 },
    );
  });
});
