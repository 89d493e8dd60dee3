/**
 * DPM (core/mechanisms/privateMondrian.ts): the release on neighbouring private point sets stays
 * within the ε it charges (exact split probabilities, then frequencies of distinguishing events over
 * many seeded runs with Wilson bounds at z = 4), and properties: public lattice boundaries whatever
 * the data's range, noise drawn the same way whatever the data (counts never redrawn), order
 * invariance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { exponentialMechanismProbabilities } from '../../../../core/mechanisms/exponentialMechanism';
import { dpmEvent, privateMondrian, splitCandidates, type DpmNoise, type DpmParams } from '../../../../core/mechanisms/privateMondrian';
import type { RandomSource } from '../../../../core/random/randomSource';
import { seededRandom } from '../../../../core/random/seededRandom';
import { empiricalEpsilon } from '../random/stats';

const NOISE: DpmNoise = { levelEpsilon: 1, sigmaCount: 1.5, sigmaSum: 2 };
const PARAMS: DpmParams = { depth: 1, grid: 4, publicWeight: 1, noise: NOISE };

/** Neighbours: one private point replaced by its opposite (the worst case for sums and splits). */
const D = [[-0.6], [-0.55], [0.4], [0.45], [-0.1]];
const D_PRIME = [[-0.6], [-0.55], [0.4], [0.45], [0.9]];
const PUBLIC = [[-0.5], [0.5]];

/** Exact utilities of the root's candidates, as the mechanism computes them (1-d, grid 4). */
function rootUtilities(points: number[][]): number[] {
  return splitCandidates([-1], [1], 4).map(({ position: s }) => {
    let left = 0;
    let right = 0;
    let gap = 0;
    for (const [x] of [...points, ...PUBLIC]) {
      if (x < s) left++;
      else right++;
      if (Math.abs(x - s) < 0.25) gap++;
    }
    return Math.min(left, right) - gap;
  });
}

describe('private Mondrian clustering: privacy', () => {
  it('the split probabilities of neighbours differ by at most e^levelEpsilon (exact)', () => {
    const rate = { epsilon: NOISE.levelEpsilon / 2, sensitivity: 1 };
    const p = exponentialMechanismProbabilities(rootUtilities(D), rate);
    const pPrime = exponentialMechanismProbabilities(rootUtilities(D_PRIME), rate);
    const worst = Math.max(...Array.from(p, (v, i) => Math.abs(Math.log(v / pPrime[i]))));
    expect(worst).toBeLessThanOrEqual(NOISE.levelEpsilon + 1e-12);
    expect(worst).toBeGreaterThan(0.15 * NOISE.levelEpsilon); // the instance is not trivially private (0.19 here)
  });

  it('distinguishing events of the whole release stay below the charged ε (60,000 seeded runs each)', () => {
    const delta = 1e-5;
    const charged = accountEpsilon(dpmEvent(1, NOISE), delta).bounds.upper;
    const runs = 60_000;
    const events: ((leaves: ReturnType<typeof privateMondrian>['output']['leaves']) => boolean)[] = [
      (leaves) => leaves[0].upper[0] === 0, // the split at the middle
      (leaves) => leaves[leaves.length - 1].noisyCount > 1.5 && leaves[leaves.length - 1].noisySum[0] > 0.8,
      (leaves) => leaves[0].upper[0] === 0 && leaves[1].noisySum[0] > 1,
    ];
    const hits = (points: number[][], seed: string) => {
      const random = seededRandom(seed);
      const counts = events.map(() => 0);
      for (let r = 0; r < runs; r++) {
        const { leaves } = privateMondrian(points, PUBLIC, 1, PARAMS, random).output;
        events.forEach((e, i) => (counts[i] += e(leaves) ? 1 : 0));
      }
      return counts;
    };
    const a = hits(D, 'dpm-d');
    const b = hits(D_PRIME, 'dpm-d-prime');
    let strongest = 0;
    events.forEach((_, i) => {
      for (const [x, y] of [[a[i], b[i]], [b[i], a[i]]]) {
        const { lower, estimate } = empiricalEpsilon(x, runs, y, runs, delta);
        expect(lower).toBeLessThanOrEqual(charged);
        strongest = Math.max(strongest, estimate);
      }
    });
    expect(strongest).toBeGreaterThan(0.25); // the events do tell the neighbours apart: the check has power
  }, 120_000);

  it('reports the event of its parameters, and none when non-private', () => {
    const random = seededRandom(1);
    expect(privateMondrian(D, PUBLIC, 1, PARAMS, random).event).toEqual(dpmEvent(1, NOISE));
    expect(privateMondrian(D, PUBLIC, 1, { ...PARAMS, noise: null }, random).event).toBeNull();
  });
});

/** A random source that counts its draws. */
function counting(seed: number): RandomSource & { draws: number } {
  const inner = seededRandom(seed);
  const source = {
    draws: 0,
    cryptographic: false,
    nextUint32: () => (source.draws++, inner.nextUint32()),
    nextFloat: () => (source.draws++, inner.nextFloat()),
  };
  return source;
}

const point = (dimension: number) => fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: dimension, maxLength: dimension });
const points = (dimension: number) => fc.array(point(dimension), { minLength: 0, maxLength: 12 });

/** Exact leaf count and sum of the clipped points, routed through the released (public) boxes. */
function exactLeaf(pointsIn: number[][], lower: Float64Array, upper: Float64Array): { count: number; sum: number[] } {
  const sum = new Array(lower.length).fill(0);
  let count = 0;
  for (const p of pointsIn) {
    const norm = Math.hypot(...p);
    const x = p.map((v) => v * Math.min(1, 1 / (norm || 1)));
    const inside = x.every((v, j) => (lower[j] === -1 ? v >= -1 : v >= lower[j]) && (upper[j] === 1 ? v <= 1 : v < upper[j]));
    if (inside) {
      count++;
      x.forEach((v, j) => (sum[j] += v));
    }
  }
  return { count, sum };
}

describe('private Mondrian clustering: properties', () => {
  it('every released boundary lies on the public lattice −1 + 2m/grid^depth, whatever the private points’ scale', () => {
    fc.assert(
      fc.property(points(2), fc.double({ min: 1e-3, max: 50, noNaN: true }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 2, max: 6 }), (pts, scale, depth, grid) => {
        const scaled = pts.map((p) => p.map((v) => v * scale));
        const { leaves } = privateMondrian(scaled, [], 2, { depth, grid, publicWeight: 0, noise: NOISE }, seededRandom(7)).output;
        const cells = grid ** depth;
        for (const leaf of leaves) {
          for (const b of [...leaf.lower, ...leaf.upper]) {
            const m = ((b + 1) * cells) / 2;
            expect(Math.abs(m - Math.round(m))).toBeLessThan(1e-6);
          }
        }
        expect(leaves).toHaveLength(2 ** depth);
      }),
      { numRuns: 60 },
    );
  });

  it('draws the same noise whatever the data: counts and sums are exact + the same draws, never redrawn (even when negative)', () => {
    fc.assert(
      fc.property(points(2), points(2), fc.integer({ min: 0, max: 1000 }), (a, b, seed) => {
        const tiny: DpmNoise = { levelEpsilon: 0.1, sigmaCount: 5, sigmaSum: 5 }; // negative noisy counts are common
        const ra = counting(seed);
        const rb = counting(seed);
        const la = privateMondrian(a, [], 2, { depth: 2, grid: 3, publicWeight: 0, noise: tiny }, ra).output.leaves;
        const lb = privateMondrian(b, [], 2, { depth: 2, grid: 3, publicWeight: 0, noise: tiny }, rb).output.leaves;
        expect(ra.draws).toBe(rb.draws);
        la.forEach((leaf, i) => {
          const ea = exactLeaf(a, leaf.lower, leaf.upper);
          const eb = exactLeaf(b, lb[i].lower, lb[i].upper);
          expect(leaf.noisyCount - ea.count).toBeCloseTo(lb[i].noisyCount - eb.count, 9);
          leaf.noisySum.forEach((v, j) => expect(v - ea.sum[j]).toBeCloseTo(lb[i].noisySum[j] - eb.sum[j], 9));
        });
      }),
      { numRuns: 60 },
    );
  });

  it('depends on the private points as a set: any order gives the same release', () => {
    fc.assert(
      fc.property(points(3), fc.integer({ min: 0, max: 1000 }), (pts, seed) => {
        const reversed = [...pts].reverse();
        const run = (p: number[][]) => privateMondrian(p, [[0.2, 0.1, -0.3]], 3, { depth: 2, grid: 4, publicWeight: 1, noise: NOISE }, seededRandom(seed)).output.leaves;
        const x = run(pts);
        const y = run(reversed);
        x.forEach((leaf, i) => {
          expect(Array.from(leaf.upper)).toEqual(Array.from(y[i].upper));
          expect(leaf.noisyCount).toBeCloseTo(y[i].noisyCount, 9);
          leaf.noisySum.forEach((v, j) => expect(v).toBeCloseTo(y[i].noisySum[j], 9));
        });
      }),
      { numRuns: 40 },
    );
  });

  it('refuses bad settings and non-finite points', () => {
    expect(() => privateMondrian([[0]], [], 1, { ...PARAMS, depth: 0 }, seededRandom(1))).toThrow(/depth/);
    expect(() => privateMondrian([[0]], [], 1, { ...PARAMS, grid: 1 }, seededRandom(1))).toThrow(/grid/);
    expect(() => privateMondrian([[NaN]], [], 1, PARAMS, seededRandom(1))).toThrow(/non-finite/);
    expect(() => privateMondrian([[0, 1]], [], 1, PARAMS, seededRandom(1))).toThrow(/dimensions/);
    expect(() => privateMondrian([[0]], [], 1, { ...PARAMS, noise: { ...NOISE, sigmaSum: 0 } }, seededRandom(1))).toThrow(/sigmaSum/);
  });
});
