/**
 * Ball-projected and clipped means: the sensitivity claims in their headers (centred sum:
 * R under add/remove, 2R under replace-one) checked as properties, the events they charge,
 * and an empirical privacy check of the noisy centred sum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clippedMean } from '../../../../core/mechanisms/clippedMean';
import { centredProjectedSum, projectedMean, projectedMeanEvent, projectedOffset } from '../../../../core/mechanisms/projectedMean';
import { seededRandom } from '../../../../core/random/seededRandom';
import { normalCdf, wilson } from '../random/stats';

const DIM = 3;
const point = fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: DIM, maxLength: DIM });
const norm = (v: ArrayLike<number>): number => Math.sqrt(Array.from(v).reduce((a, x) => a + x * x, 0));
const diffNorm = (a: Float64Array, b: Float64Array): number => norm(a.map((x, i) => x - b[i]));

describe('projection onto B(c, R)', () => {
  it('lands in the ball and leaves interior points alone (property)', () => {
    fc.assert(
      fc.property(point, point, fc.double({ min: 0.01, max: 50, noNaN: true }), (x, c, radius) => {
        const off = projectedOffset(x, c, radius, new Float64Array(DIM));
        const inside = norm(x.map((v, i) => v - c[i])) <= radius;
        const unchanged = off.every((v, i) => Math.abs(v - (x[i] - c[i])) < 1e-12);
        return norm(off) <= radius * (1 + 1e-12) && (!inside || unchanged);
      }),
      { numRuns: 300 },
    );
  });

  it('centred sum: ℓ2 change ≤ R when a point is added, ≤ 2R when one is replaced (property)', () => {
    fc.assert(
      fc.property(fc.array(point, { maxLength: 12 }), point, point, point, fc.double({ min: 0.01, max: 20, noNaN: true }), (pts, extra, other, c, radius) => {
        const s = centredProjectedSum(pts, c, radius);
        const added = centredProjectedSum([...pts, extra], c, radius);
        if (diffNorm(added, s) > radius * (1 + 1e-9)) return false;
        if (pts.length === 0) return true;
        const replaced = centredProjectedSum([...pts.slice(1), other], c, radius);
        return diffNorm(replaced, s) <= 2 * radius * (1 + 1e-9);
      }),
      { numRuns: 300 },
    );
  });
});

describe('projectedMean', () => {
  it('charges sequence([gaussian(σ_sum, R), gaussian(σ_count, 1)]) under add/remove', () => {
    expect(projectedMeanEvent({ radius: 2, sigmaSum: 3, count: { kind: 'noisy', sigma: 5 } })).toEqual({
      kind: 'sequence',
      events: [
        { kind: 'gaussian', sigma: 3, sensitivity: 2, neighbouring: 'add-remove' },
        { kind: 'gaussian', sigma: 5, sensitivity: 1, neighbouring: 'add-remove' },
      ],
      neighbouring: 'add-remove',
    });
  });

  it('charges gaussian(σ_sum, 2R) under replace-one with a public count, and checks that count', () => {
    const r = seededRandom(1);
    const pts = [[0, 0], [1, 1]];
    const { event } = projectedMean(pts, { centre: [0, 0], radius: 2, sigmaSum: 1, count: { kind: 'public', n: 2 } }, r);
    expect(event).toEqual({ kind: 'gaussian', sigma: 1, sensitivity: 4, neighbouring: 'replace-one' });
    expect(() => projectedMean(pts, { centre: [0, 0], radius: 2, sigmaSum: 1, count: { kind: 'public', n: 3 } }, r)).toThrow();
  });

  it('recovers the mean of in-ball points with small noise, and pulls outliers to the ball', () => {
    const r = seededRandom('pm-mean');
    const pts = Array.from({ length: 2000 }, (_, i) => [1 + 0.1 * Math.sin(i), 2 + 0.1 * Math.cos(i)]);
    const { output } = projectedMean(pts, { centre: [1, 2], radius: 1, sigmaSum: 0.5, count: { kind: 'noisy', sigma: 0.5 } }, r);
    expect(output.mean[0]).toBeCloseTo(1, 2);
    expect(output.mean[1]).toBeCloseTo(2, 2);
    const far = projectedMean([[1000, 2]], { centre: [1, 2], radius: 1, sigmaSum: 1e-9, count: { kind: 'public', n: 1 } }, r);
    expect(far.output.mean[0]).toBeCloseTo(2, 6); // projected to the ball's edge
  });

  it('empirical privacy of the noisy centred sum: adding a far point leaks at most the Gaussian δ(ε) with Δ = R', () => {
    const r = seededRandom('pm-privacy');
    const radius = 1;
    const sigma = 1;
    const epsilon = 1;
    const base = [[0.2], [-0.1], [0.3]];
    const tau = epsilon * sigma * sigma / radius + radius / 2 + 0.4; // shifted by the base sum 0.4
    const n = 100_000;
    let hits = 0;
    let hitsPrime = 0;
    const params = { centre: [0], radius, sigmaSum: sigma, count: { kind: 'noisy' as const, sigma: 1 } };
    for (let i = 0; i < n; i++) {
      if (projectedMean(base, params, r).output.noisySum[0] > tau) hits++;
      if (projectedMean([...base, [50]], params, r).output.noisySum[0] > tau) hitsPrime++;
    }
    const delta = normalCdf(radius / (2 * sigma) - (epsilon * sigma) / radius) - Math.exp(epsilon) * normalCdf(-radius / (2 * sigma) - (epsilon * sigma) / radius);
    const a = wilson(hitsPrime, n);
    const b = wilson(hits, n);
    expect(a.lower - Math.exp(epsilon) * b.upper).toBeLessThanOrEqual(delta);
  });
});

describe('clippedMean', () => {
  it('is the projected mean around the origin with radius C', () => {
    const pts = [[3, 4], [0.3, 0.4], [-6, 8]];
    const params = { clipNorm: 1, sigmaSum: 0.7, count: { kind: 'noisy' as const, sigma: 2 } };
    const a = clippedMean(pts, 2, params, seededRandom(9));
    const b = projectedMean(pts, { centre: [0, 0], radius: 1, sigmaSum: 0.7, count: { kind: 'noisy', sigma: 2 } }, seededRandom(9));
    expect(Array.from(a.output.mean)).toEqual(Array.from(b.output.mean));
    expect(a.event).toEqual(b.event);
    expect(Array.from(centredProjectedSum(pts, [0, 0], 1)).map((x) => +x.toFixed(12))).toEqual([0.3, 2]);
  });
});
