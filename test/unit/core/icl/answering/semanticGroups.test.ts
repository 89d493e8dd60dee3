/**
 * Semantic group aggregation's core (core/icl/answering/sga/): candidates are always public
 * answers, well-separated answer groups are found, the event reported is the one the planner
 * charges, the public basis is orthonormal and public-only, and the private path refuses a
 * seeded source.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../../core/accounting';
import { poissonSampled } from '../../../../../core/accounting/events';
import { answerQueryEvent, mechanismEvent } from '../../../../../core/icl/answering/answerEvents';
import { project, publicBasis } from '../../../../../core/icl/answering/sga/publicBasis';
import { clusterAnswers, DEFAULT_SGA_SETTINGS, sgaCandidates } from '../../../../../core/icl/answering/sga/semanticGroups';
import { answeringEvent, answeringRate } from '../../../../../core/planning/answering';
import { sgaMechanismEvent, sgaNoise } from '../../../../../core/planning/sgaEvent';
import { allowSeededOnPrivatePath, NonCryptographicRandomError } from '../../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../../core/random/seededRandom';

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
/** A unit vector near `base` (a small seeded perturbation). */
function near(base: number[], random: ReturnType<typeof seededRandom>, spread = 0.05): number[] {
  return unit(base.map((x) => x + spread * (2 * random.nextFloat() - 1)));
}

const DIM = 16;
const axis = (i: number, scale = 1) => Array.from({ length: DIM }, (_, j) => (j === i ? scale : 0.1));

describe('clusterAnswers', () => {
  it('finds two well-separated answer groups and returns their public neighbours as candidates', () => {
    const random = seededRandom('sga-groups');
    const publicAnswers = [near(axis(0), random), near(axis(1), random), near(axis(2), random), near(axis(3), random)];
    const privateAnswers = [...Array.from({ length: 6 }, () => near(axis(0), random)), ...Array.from({ length: 4 }, () => near(axis(2), random)), null];
    const exact = clusterAnswers(privateAnswers, publicAnswers, DEFAULT_SGA_SETTINGS, null, random);
    expect(exact.event).toBeNull();
    expect(sgaCandidates(exact, 2)).toEqual([0, 2]);
    // A generous budget keeps the same answer most of the time (private, seeded for the test).
    const noisy = allowSeededOnPrivatePath(seededRandom('sga-noisy'), 'test');
    let agree = 0;
    for (let r = 0; r < 50; r++) if (sgaCandidates(clusterAnswers(privateAnswers, publicAnswers, DEFAULT_SGA_SETTINGS, 200, noisy), 1)[0] === 0) agree++;
    expect(agree).toBeGreaterThanOrEqual(40);
  });

  it('only ever proposes public answers, distinct, from clusters with a positive noisy count', () => {
    const vector = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }).filter((v) => Math.hypot(...v) > 0.1).map(unit);
    fc.assert(
      fc.property(fc.array(fc.option(vector, { nil: null }), { maxLength: 12 }), fc.array(vector, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 999 }), fc.double({ min: 0.01, max: 50, noNaN: true }), (priv, pub, seed, rho) => {
        const release = clusterAnswers(priv, pub, { ...DEFAULT_SGA_SETTINGS, depth: 2 }, rho, allowSeededOnPrivatePath(seededRandom(seed), 'test'));
        for (const c of release.clusters) {
          expect(c.noisyCount).toBeGreaterThan(0);
          expect(Number.isInteger(c.nearestPublic) && c.nearestPublic >= 0 && c.nearestPublic < pub.length).toBe(true);
        }
        const candidates = sgaCandidates(release, 3);
        expect(new Set(candidates).size).toBe(candidates.length);
        expect(candidates.every((i) => i >= 0 && i < pub.length)).toBe(true);
        expect(release.clusters.map((c) => c.noisyCount)).toEqual([...release.clusters.map((c) => c.noisyCount)].sort((a, b) => b - a));
      }),
      { numRuns: 80 },
    );
  });

  it('reports exactly the event the planner charges for the same settings', () => {
    const random = allowSeededOnPrivatePath(seededRandom(3), 'test');
    for (const depth of [1, 2, 3]) {
      const { event } = clusterAnswers([unit(axis(0))], [unit(axis(1))], { ...DEFAULT_SGA_SETTINGS, depth }, 0.7, random);
      expect(JSON.stringify(event)).toBe(JSON.stringify(sgaMechanismEvent(0.7, depth)));
      expect(JSON.stringify(event)).toBe(JSON.stringify(mechanismEvent('sga', 0.7, 0, 0.5, depth)));
      const shape = { ensemble: 10, shots: 4, method: 'sga' as const, sgaDepth: depth };
      expect(answerQueryEvent(shape, 500, 0.7, 0)).toEqual(poissonSampled(answeringRate(shape, 500), event!));
    }
  });

  it('refuses a seeded source on the private path, and a query without public answers', () => {
    expect(() => clusterAnswers([unit(axis(0))], [unit(axis(1))], DEFAULT_SGA_SETTINGS, 1, seededRandom(1))).toThrow(NonCryptographicRandomError);
    expect(() => clusterAnswers([unit(axis(0))], [], DEFAULT_SGA_SETTINGS, null, seededRandom(1))).toThrow(/public answers/);
    expect(() => clusterAnswers([[1, 0]], [unit(axis(1))], DEFAULT_SGA_SETTINGS, null, seededRandom(1))).toThrow(/dimensions/);
    expect(() => sgaCandidates({ clusters: [], event: null }, 0)).toThrow(/k/);
  });
});

describe('publicBasis', () => {
  it('is orthonormal, at most the public rank, and keeps public points’ norms when it spans them', () => {
    const random = seededRandom('basis');
    const pub = Array.from({ length: 3 }, (_, i) => near(axis(i, 3), random, 0.3));
    const basis = publicBasis([...pub, pub[0]], 8);
    expect(basis).toHaveLength(3);
    basis.forEach((b, i) => basis.forEach((c, j) => expect(b.reduce((s, v, k) => s + v * c[k], 0)).toBeCloseTo(i === j ? 1 : 0, 9)));
    for (const p of pub) expect(Math.hypot(...project(p, basis))).toBeCloseTo(1, 9);
    expect(publicBasis(pub, 2)).toHaveLength(2);
  });
});

describe('SGA pricing', () => {
  it('splits ρ by the documented rule: the parts\' zCDP costs add up to ρ', () => {
    for (const [rho, depth] of [[0.01, 1], [0.5, 2], [3, 4]] as const) {
      const n = sgaNoise(rho, depth);
      const splits = (depth * n.levelEpsilon ** 2) / 8; // ε-DP exponential mechanism: ε²/8-zCDP
      const counts = (Math.SQRT2 / n.sigmaCount) ** 2 / 2;
      const sums = (2 / n.sigmaSum) ** 2 / 2;
      expect(splits).toBeCloseTo(0.25 * rho, 12);
      expect(counts).toBeCloseTo(0.25 * rho, 12);
      expect(splits + counts + sums).toBeCloseTo(rho, 12);
    }
    expect(() => sgaNoise(0, 2)).toThrow(/ρ/);
    expect(() => sgaNoise(1, 0)).toThrow(/depth/);
  });

  it('an sga workload is accountable by PLD (the sampled step as one product pair) and costs more with a larger ρ', () => {
    const shape = { ensemble: 10, shots: 4, aggregation: 'sga' as const };
    const at = (rho: number) => accountEpsilon(answeringEvent(shape, 400, rho, 100), 1e-6);
    const [low, high] = [at(0.5), at(2)];
    expect(low.accountant).toBe('pld');
    expect(Number.isFinite(low.bounds.upper)).toBe(true);
    expect(high.bounds.upper).toBeGreaterThan(low.bounds.upper);
    expect(sgaNoise(2, 2).sigmaSum).toBeLessThan(sgaNoise(0.5, 2).sigmaSum);
  });
});
