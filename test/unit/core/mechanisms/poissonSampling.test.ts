/**
 * Poisson subsampling with geometric skips: every unit is included with probability q
 * independently (per-unit frequencies, the sample-size distribution, and pairwise
 * independence of neighbours), sampled units go to teachers uniformly, and the outputs are
 * well formed. Chi-square tests at p = 0.001 on fixed seeds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poissonSample, poissonSampleAssign, poissonSampleTeachers } from '../../../../core/mechanisms/poissonSampling';
import { seededRandom } from '../../../../core/random/seededRandom';
import { chiSquareCritical, chiSquarePasses, wilson } from '../random/stats';

describe('poissonSample', () => {
  it('includes every unit with frequency q (chi-square over 300 units × 4,000 draws)', () => {
    // Per-unit counts ~ Binomial(reps, q) independently: Σ (count − reps·q)² / (reps·q(1−q))
    // is χ² with n degrees of freedom. Catches an off-by-one skip (first or last unit) or a
    // biased geometric.
    const r = seededRandom('ps-frequency');
    const n = 300;
    const q = 0.07;
    const reps = 4000;
    const counts = new Array(n).fill(0);
    for (let rep = 0; rep < reps; rep++) for (const i of poissonSample(n, q, r)) counts[i]++;
    const variance = reps * q * (1 - q);
    const stat = counts.reduce((a, c) => a + (c - reps * q) ** 2 / variance, 0);
    expect(stat).toBeLessThan(chiSquareCritical(n));
    // The χ² sum dilutes one bad unit (a unit sampled half as often adds only ≈ 75 to a sum
    // whose critical value is ≈ 381), so the boundary units, where an off-by-one in the skips
    // would show, are also checked alone: each frequency's Wilson interval (z = 4) holds q.
    for (const unit of [0, 1, n - 2, n - 1]) {
      const ci = wilson(counts[unit], reps);
      expect(ci.lower, `unit ${unit}`).toBeLessThanOrEqual(q);
      expect(ci.upper, `unit ${unit}`).toBeGreaterThanOrEqual(q);
    }
  });

  it('sample sizes are Binomial(n, q) (chi-square over the size histogram)', () => {
    const r = seededRandom('ps-size');
    const n = 60;
    const q = 0.2;
    const reps = 20_000;
    const observed = new Array(n + 1).fill(0);
    for (let rep = 0; rep < reps; rep++) observed[poissonSample(n, q, r).length]++;
    const pmf: number[] = [];
    let logChoose = 0;
    for (let k = 0; k <= n; k++) {
      if (k > 0) logChoose += Math.log((n - k + 1) / k);
      pmf.push(Math.exp(logChoose + k * Math.log(q) + (n - k) * Math.log(1 - q)));
    }
    expect(chiSquarePasses(observed, pmf).pass).toBe(true);
  });

  it('inclusions of adjacent units are independent (2×2 contingency, P[both] = q²)', () => {
    const r = seededRandom('ps-pairs');
    const q = 0.3;
    const reps = 50_000;
    let both = 0;
    for (let rep = 0; rep < reps; rep++) {
      const s = poissonSample(10, q, r);
      if (s.includes(4) && s.includes(5)) both++;
    }
    const ci = wilson(both, reps);
    expect(ci.lower).toBeLessThanOrEqual(q * q);
    expect(ci.upper).toBeGreaterThanOrEqual(q * q);
  });

  it('returns sorted, distinct, in-range indices; q = 0 and q = 1 are exact (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer(), (n, q, seed) => {
        const s = poissonSample(n, q, seededRandom(seed));
        for (let i = 0; i < s.length; i++) if (s[i] >= n || (i > 0 && s[i] <= s[i - 1])) return false;
        return true;
      }),
      { numRuns: 200 },
    );
    const r = seededRandom(1);
    expect(poissonSample(100, 0, r).length).toBe(0);
    expect(Array.from(poissonSample(5, 1, r))).toEqual([0, 1, 2, 3, 4]);
    expect(() => poissonSample(10, 1.5, r)).toThrow();
    expect(() => poissonSample(-1, 0.5, r)).toThrow();
  });

  it('handles n = 1,000,000 at q = 0.001 with about qn units', () => {
    const r = seededRandom('ps-large');
    const s = poissonSample(1_000_000, 0.001, r);
    // Binomial(1e6, 1e−3): mean 1000, sd ≈ 31.6; 5 sd.
    expect(Math.abs(s.length - 1000)).toBeLessThan(160);
  });
});

describe('teacher assignment', () => {
  it('assigns sampled units to M teachers uniformly (chi-square, p = 0.001)', () => {
    const r = seededRandom('ps-teachers');
    const M = 13;
    const counts = new Array(M).fill(0);
    for (let rep = 0; rep < 200; rep++) for (const m of poissonSampleAssign(2000, 0.1, M, r).teacher) counts[m]++;
    expect(chiSquarePasses(counts, new Array(M).fill(1 / M)).pass).toBe(true);
  });

  it('groups partition the sample: each sampled unit in exactly one teacher (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 20 }), fc.integer(), (n, q, M, seed) => {
        const sample = poissonSample(n, q, seededRandom(seed));
        const groups = poissonSampleTeachers(n, q, M, seededRandom(seed));
        const flat = groups.flat().sort((a, b) => a - b);
        return groups.length === M && flat.length === sample.length && flat.every((v, i) => v === sample[i]);
      }),
      { numRuns: 100 },
    );
  });
});
