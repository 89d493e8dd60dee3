/**
 * GoodRadius: NSV16's score L(r) (range, monotonicity and its sensitivity 2 under
 * add/remove, as properties), the radius it finds on clustered data, and an empirical
 * privacy check of the AboveThreshold search on neighbouring point sets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ballCounts, goodRadius, goodRadiusScore, radiusGrid } from '../../../../core/mechanisms/goodRadius';
import { seededRandom } from '../../../../core/random/seededRandom';
import { sampleGaussian } from '../../../../core/random/samplers';
import { empiricalEpsilon } from '../random/stats';

function scores(points: number[][], grid: number[], t: number): number[] {
  const counts = ballCounts(points, grid);
  return grid.map((_, g) => goodRadiusScore(counts, points.length, grid.length, g, t));
}

const pointSet = fc.array(fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 2, maxLength: 2 }), { minLength: 0, maxLength: 25 });
const extraPoint = fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 2, maxLength: 2 });

describe('L(r) (Nissim–Stemmer–Vadhan 2016)', () => {
  const grid = radiusGrid(0.01, 16, 2);

  it('the grid is geometric, data-independent and ends at rMax', () => {
    expect(grid[0]).toBe(0.01);
    expect(grid[grid.length - 1]).toBe(16);
    for (let i = 1; i < grid.length - 1; i++) expect(grid[i] / grid[i - 1]).toBeCloseTo(2, 12);
  });

  it('lies in [0, t] and is non-decreasing in r (property)', () => {
    fc.assert(
      fc.property(pointSet, fc.integer({ min: 1, max: 10 }), (pts, t) => {
        const s = scores(pts, grid, t);
        return s.every((v, i) => v >= 0 && v <= t && (i === 0 || v >= s[i - 1]));
      }),
      { numRuns: 150 },
    );
  });

  it('changes by at most 2 when one point is added (property: the sensitivity GoodRadius charges)', () => {
    fc.assert(
      fc.property(pointSet, extraPoint, fc.integer({ min: 1, max: 10 }), (pts, extra, t) => {
        const before = scores(pts, grid, t);
        const after = scores([...pts, extra], grid, t);
        return before.every((v, i) => Math.abs(after[i] - v) <= 2 + 1e-12);
      }),
      { numRuns: 200 },
    );
  });

  it('equals t once some ball of radius r/2 holds t points', () => {
    const cluster = Array.from({ length: 10 }, (_, i) => [0.1 * Math.cos(i), 0.1 * Math.sin(i)]);
    const far = Array.from({ length: 5 }, (_, i) => [100 + 10 * i, 0]);
    expect(scores([...cluster, ...far], [0.2, 0.05], 10)).toEqual([10, expect.any(Number)]);
  });
});

describe('goodRadius', () => {
  it('finds the cluster scale on clustered data and charges pure(ε)', () => {
    // 200 points: a cluster of 120 with σ = 0.05 per axis plus 80 spread uniformly-ish points.
    const r = seededRandom('gr-cluster');
    const pts: number[][] = [];
    for (let i = 0; i < 120; i++) pts.push([sampleGaussian(r, 0.05), sampleGaussian(r, 0.05)]);
    for (let i = 0; i < 80; i++) pts.push([10 * r.nextFloat() - 5, 10 * r.nextFloat() - 5]);
    for (let run = 0; run < 20; run++) {
      const { output, event } = goodRadius(pts, { t: 100, epsilon: 1, rMin: 0.001, rMax: 20, threshold: 80 }, r);
      expect(output.radius).not.toBeNull();
      expect(output.radius!).toBeGreaterThan(0.03);
      expect(output.radius!).toBeLessThan(0.6);
      expect(event).toEqual({ kind: 'pure', epsilon: 1, neighbouring: 'add-remove' });
    }
  });

  it('returns ⊥ when no grid radius can reach the threshold', () => {
    const r = seededRandom('gr-none');
    const pts = [[0, 0], [1, 1], [2, 2]];
    expect(goodRadius(pts, { t: 50, epsilon: 5, rMin: 0.1, rMax: 10 }, r).output.radius).toBeNull();
  });

  it('empirical privacy: the index distribution on neighbouring point sets stays within e^ε', () => {
    // Worst case for L: t points in a tight cluster (L = t at every radius) versus t − 1 of
    // them (L = t − 2 + 1/t): the score moves by ≈ Δ = 2 at every grid radius at once.
    const r = seededRandom('gr-privacy');
    const t = 8;
    const base: number[][] = Array.from({ length: t }, (_, i) => [0.001 * i, 0]);
    const neighbour = base.slice(0, t - 1);
    const params = { t, epsilon: 2, rMin: 0.05, rMax: 1.6, threshold: t - 1 };
    const n = 30_000;
    const grid = radiusGrid(params.rMin, params.rMax);
    const hist = (pts: number[][]): number[] => {
      const h = new Array(grid.length + 1).fill(0);
      for (let i = 0; i < n; i++) h[goodRadius(pts, params, r).output.index ?? grid.length]++;
      return h;
    };
    const a = hist(base);
    const b = hist(neighbour);
    let largest = 0;
    for (let j = 0; j < a.length; j++) {
      if (a[j] < 200 || b[j] < 200) continue; // rare outputs carry no measurable ratio
      const ab = empiricalEpsilon(a[j], n, b[j], n);
      const ba = empiricalEpsilon(b[j], n, a[j], n);
      expect(ab.lower).toBeLessThanOrEqual(params.epsilon);
      expect(ba.lower).toBeLessThanOrEqual(params.epsilon);
      largest = Math.max(largest, Math.abs(ab.estimate));
    }
    // The neighbours are distinguishable (AboveThreshold's ε is a worst-case bound; ≈ 0.85 here),
    // so the check above is not vacuous.
    expect(largest).toBeGreaterThan(0.4);
  });
});
