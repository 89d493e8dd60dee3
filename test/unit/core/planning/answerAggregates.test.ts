/**
 * Sensitivities of private answering's aggregates under Veil's neighbouring relation (one
 * privacy unit added or removed changes one teacher's answer, or makes a teacher without
 * records answer): one teacher's change moves each aggregate by at most the stated
 * sensitivity, and some change attains it — so a constant set too low or too high fails.
 * The mechanisms run with the parameters the planner charges for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composed, discreteGaussian } from '../../../../core/accounting/events';
import { discreteGaussianMechanism } from '../../../../core/mechanisms/discreteGaussianMechanism';
import { gaussianMechanism } from '../../../../core/mechanisms/gaussianMechanism';
import { jointExponentialTopK } from '../../../../core/mechanisms/jointExponentialMechanism';
import {
  EMBEDDING_L2_SENSITIVITY,
  embeddingAggregationParams,
  embeddingSum,
  KEYWORD_COUNT_LINF,
  KEYWORD_UTILITY_SENSITIVITY,
  keywordAggregationParams,
  keywordCounts,
  VOTE_CHANGED_COUNTS,
  VOTE_L2_SENSITIVITY,
  voteAggregationParams,
  voteHistogram,
} from '../../../../core/planning/answerAggregates';
import { queryEvent } from '../../../../core/planning/answering';
import { seededRandom } from '../../../../core/random/seededRandom';

const SEED = 20261124;
const RUNS = 300;
const EPS = 1e-9;

const l2 = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
};
const linf = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};
const replaced = <T,>(xs: readonly T[], i: number, x: T): T[] => xs.map((y, j) => (j === i ? x : y));

/** A unit vector from a non-degenerate direction. */
const unit = (d: number) =>
  fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: d, maxLength: d }).filter((v) => Math.hypot(...v) > 1e-3).map((v) => {
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  });

/** The joint exponential mechanism's utility of the ordered sequence s: −maxᵢ (c₍ᵢ₎ − c_{sᵢ}). */
function jemUtility(counts: ArrayLike<number>, s: readonly number[]): number {
  const sorted = Array.from(counts).sort((a, b) => b - a);
  return -Math.max(...s.map((item, i) => sorted[i] - counts[item]));
}

describe('vote histogram: ℓ2 √2', () => {
  const votes = (classes: number) => fc.array(fc.option(fc.integer({ min: 0, max: classes - 1 }), { nil: null }), { minLength: 1, maxLength: 30 });

  it('one teacher changing (or gaining) its vote moves the histogram by at most √2', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }).chain((c) => fc.tuple(fc.constant(c), votes(c), fc.nat(), fc.option(fc.integer({ min: 0, max: c - 1 }), { nil: null }))), ([c, vs, i, vote]) => {
        const j = i % vs.length;
        expect(l2(voteHistogram(vs, c), voteHistogram(replaced(vs, j, vote), c))).toBeLessThanOrEqual(VOTE_L2_SENSITIVITY + EPS);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is attained by a vote moving to another class', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }).chain((c) => fc.tuple(fc.constant(c), votes(c), fc.nat())), ([c, vs, i]) => {
        const j = i % vs.length;
        const before = replaced(vs, j, 0);
        expect(l2(voteHistogram(before, c), voteHistogram(replaced(before, j, 1), c))).toBeCloseTo(VOTE_L2_SENSITIVITY, 12);
      }),
      { seed: SEED, numRuns: 50 },
    );
  });
});

describe('sum of unit-norm embeddings: ℓ2 2', () => {
  const teachers = (d: number) => fc.array(fc.option(unit(d), { nil: null }), { minLength: 1, maxLength: 12 });

  it('one teacher changing its answer (or answering at all) moves the sum by at most 2', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }).chain((d) => fc.tuple(fc.constant(d), teachers(d), fc.nat(), fc.option(unit(d), { nil: null }))), ([d, es, i, e]) => {
        const j = i % es.length;
        expect(l2(embeddingSum(es, d), embeddingSum(replaced(es, j, e), d))).toBeLessThanOrEqual(EMBEDDING_L2_SENSITIVITY + EPS);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is attained by opposite answers (e′ = −e): 1 would under-charge', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }).chain((d) => fc.tuple(fc.constant(d), teachers(d), fc.nat(), unit(d))), ([d, es, i, e]) => {
        const j = i % es.length;
        const before = replaced(es, j, e);
        const after = replaced(es, j, e.map((x) => -x));
        expect(l2(embeddingSum(before, d), embeddingSum(after, d))).toBeCloseTo(EMBEDDING_L2_SENSITIVITY, 9);
      }),
      { seed: SEED, numRuns: 50 },
    );
  });

  it('refuses embeddings that are not unit norm (the bound relies on it)', () => {
    expect(() => embeddingSum([[0.5, 0.5]], 2)).toThrow(/unit norm/);
  });
});

describe('keyword counts: ℓ∞ 1 in both directions, joint exponential mechanism at sensitivity 2', () => {
  const universe = 6;
  const set = fc.uniqueArray(fc.integer({ min: 0, max: universe - 1 }), { maxLength: universe }).map((xs) => new Set(xs));
  const teachers = fc.array(fc.option(set, { nil: null }), { minLength: 1, maxLength: 12 });
  const sequence = (k: number) => fc.uniqueArray(fc.integer({ min: 0, max: universe - 1 }), { minLength: k, maxLength: k });

  it('one teacher changing its keyword set moves every count by at most 1 and the utility of every sequence by at most 2', () => {
    fc.assert(
      fc.property(teachers, fc.nat(), fc.option(set, { nil: null }), fc.integer({ min: 1, max: 3 }).chain((k) => fc.array(sequence(k), { minLength: 1, maxLength: 8 })), (ts, i, s, seqs) => {
        const j = i % ts.length;
        const before = keywordCounts(ts, universe);
        const after = keywordCounts(replaced(ts, j, s), universe);
        expect(linf(before, after)).toBeLessThanOrEqual(KEYWORD_COUNT_LINF);
        for (const seq of seqs) expect(Math.abs(jemUtility(before, seq) - jemUtility(after, seq))).toBeLessThanOrEqual(KEYWORD_UTILITY_SENSITIVITY);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('the utility bound 2 is attained (a swap of keywords), so sensitivity 1 would under-charge', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), (t) => {
        // Others: keyword 0 in t responses, keyword 1 in t − 1. The changing teacher moves from {0} to {1}.
        const others = [...Array.from({ length: t }, () => new Set([0])), ...Array.from({ length: t - 1 }, () => new Set([1]))];
        const before = keywordCounts([...others, new Set([0])], universe);
        const after = keywordCounts([...others, new Set([1])], universe);
        expect(linf(before, after)).toBe(KEYWORD_COUNT_LINF);
        expect(Math.abs(jemUtility(before, [1]) - jemUtility(after, [1]))).toBe(KEYWORD_UTILITY_SENSITIVITY);
      }),
      { seed: SEED, numRuns: 10 },
    );
  });
});

describe('the mechanisms charge what the planner prices', () => {
  const units = 1000;
  const shape = { ensemble: 10, shots: 4 };
  const inner = (e: ReturnType<typeof queryEvent>) => (e.kind === 'poisson-sampled' ? e.event : e);

  it('vote: the exact discrete Gaussian per count, two counts moved by 1 — the planner prices composed(discreteGaussian(σ, 1), 2)', () => {
    const random = seededRandom(SEED);
    const released = discreteGaussianMechanism([1, 2, 3], voteAggregationParams(3), random);
    expect(released.output.every(Number.isInteger)).toBe(true);
    // The mechanism states the histogram's ℓ2 sensitivity √2; the planner charges the same release exactly,
    // as the two counts it moves by 1 each.
    expect(released.event).toEqual(discreteGaussian(3, VOTE_L2_SENSITIVITY));
    expect(inner(queryEvent({ ...shape, aggregation: 'vote' }, units, 3))).toEqual(composed(discreteGaussian(3, 1), VOTE_CHANGED_COUNTS));
    expect(VOTE_CHANGED_COUNTS * 1 ** 2).toBeCloseTo(VOTE_L2_SENSITIVITY ** 2, 12);
  });

  it('embedding: Gaussian noise at the planned σ with the stated sensitivity', () => {
    const random = seededRandom(SEED);
    expect(gaussianMechanism([0.1, 0.2], embeddingAggregationParams(3), random).event).toEqual(inner(queryEvent({ ...shape, aggregation: 'embedding' }, units, 3)));
    expect(inner(queryEvent({ ...shape, aggregation: 'embedding' }, units, 3))).toMatchObject({ kind: 'gaussian', sigma: 3, sensitivity: 2 });
  });

  it('keyword: the joint exponential mechanism at sensitivity 2 is ε-DP at the planned ε per query', () => {
    const params = keywordAggregationParams(0.3);
    expect(params.sensitivity).toBe(2);
    expect(jointExponentialTopK([3, 1, 2, 0], 2, params, seededRandom(SEED)).event).toEqual(inner(queryEvent({ ...shape, aggregation: 'keyword' }, units, 0.3)));
  });
});
