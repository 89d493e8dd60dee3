import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../../core/accounting';
import { aggregateEmbedding, aggregateKeywordsEm, aggregateKeywordsPtr, aggregateVote } from '../../../../../core/icl/answering/aggregators';
import { answerBatchEvent, mechanismEvent } from '../../../../../core/icl/answering/answerEvents';
import { PTR_SELECT_SHARE } from '../../../../../core/icl/answering/aggregators';
import { answeringEvent } from '../../../../../core/planning/answering';
import { composed, discreteGaussian } from '../../../../../core/accounting/events';
import { embeddingAggregationParams, keywordAggregationParams, keywordCounts, voteAggregationParams, voteEvent } from '../../../../../core/planning/answerAggregates';
import { sortIndicesDescending } from '../../../../../core/mechanisms/types';
import { seededRandom } from '../../../../../core/random/seededRandom';

const eventOf = (p: { sigma: number; l2Sensitivity: number }) => ({ kind: 'gaussian', sigma: p.sigma, sensitivity: p.l2Sensitivity, neighbouring: 'add-remove' });

describe('answer aggregators', () => {
  it('release through the parameters of answerAggregates.ts, and the batch event is the planner’s', () => {
    const r = seededRandom(1);
    expect(aggregateVote([0, 1, 1, null], 2, 3, r).event).toEqual(composed(discreteGaussian(voteAggregationParams(3).sigma, 1), 2));
    const e = [Float32Array.of(1, 0), Float32Array.of(0, 1)];
    expect(aggregateEmbedding(e, e, 2.5, r).event).toEqual(eventOf(embeddingAggregationParams(2.5)));
    expect(aggregateKeywordsEm([new Set([0]), new Set([1])], 3, 2, 0.7, r).event).toEqual({ kind: 'pure', epsilon: keywordAggregationParams(0.7).epsilon, neighbouring: 'add-remove' });
    expect(mechanismEvent('vote', 3, 0, PTR_SELECT_SHARE)).toEqual(voteEvent(3));
    // The batch's reservation is exactly answeringEvent (core/planning/answering.ts); the size release is its own entry.
    for (const method of ['vote', 'embedding', 'keyword'] as const) {
      expect(answerBatchEvent({ ensemble: 10, shots: 2, method }, 500, 1.5, 7, 1e-6)).toEqual(answeringEvent({ ensemble: 10, shots: 2, aggregation: method }, 500, 1.5, 7));
    }
  });

  it('with (almost) zero noise, every aggregate equals the non-private ensemble’s', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), { minLength: 1, maxLength: 30 }), fc.integer(), (votes, seed) => {
        const h = Array.from({ length: 4 }, (_, c) => votes.filter((v) => v === c).length);
        const top = Math.max(...h);
        fc.pre(h.filter((x) => x === top).length === 1); // a tie is broken by the noise, not by index
        const exact = aggregateVote(votes, 4, null, seededRandom(seed)).output.answer;
        expect(exact).toBe(h.indexOf(top));
        expect(aggregateVote(votes, 4, 1e-9, seededRandom(seed)).output.answer).toBe(exact);
      }),
    );
    const r = seededRandom(2);
    const cands = [Float32Array.of(1, 0), Float32Array.of(0, 1), Float32Array.of(Math.SQRT1_2, Math.SQRT1_2)];
    const teachers = [cands[1], cands[1], cands[2], null];
    expect(aggregateEmbedding(teachers, cands, 1e-9, r).output).toBe(aggregateEmbedding(teachers, cands, null, r).output);
    const sets = [new Set([0, 2]), new Set([2]), new Set([2, 3]), new Set([0])];
    expect(aggregateKeywordsEm(sets, 5, 2, 1e9, r).output).toEqual(aggregateKeywordsEm(sets, 5, 2, null, r).output);
  });

  it('releases integer counts (exact discrete Gaussian) and breaks a tie uniformly at random, not by index', () => {
    const r = seededRandom('integer-histogram');
    for (let i = 0; i < 200; i++) expect(aggregateVote([0, 1, 1, 2, null], 3, 1.7, r).output.histogram.every(Number.isInteger)).toBe(true);
    // A 2-2 tie without noise: each class wins about half the time (1000 draws: 500 ± 5 s.d. of 16).
    let first = 0;
    for (let i = 0; i < 1000; i++) if (aggregateVote([0, 0, 1, 1], 2, null, r).output.answer === 0) first++;
    expect(Math.abs(first - 500)).toBeLessThan(80);
  });

  it('with overwhelming noise, the vote does not depend on the private votes', () => {
    // σ = 1e6 on counts ≤ 20: each class wins with probability 1/3 ± 1e-5 whatever the votes.
    // 6000 draws per input: a 3-class chi-square against uniform stays below 13.8 (p = 0.001).
    for (const votes of [Array(20).fill(0), Array(20).fill(2)]) {
      const r = seededRandom(`overwhelming-${votes[0]}`);
      const wins = [0, 0, 0];
      for (let i = 0; i < 6000; i++) wins[aggregateVote(votes, 3, 1e6, r).output.answer]++;
      const chi = wins.reduce((s, w) => s + (w - 2000) ** 2 / 2000, 0);
      expect(chi).toBeLessThan(13.8);
    }
  });

  it('an empirical ε of one vote on neighbouring inputs stays below the charged ε', () => {
    // Neighbours: one teacher moves its vote (5, 3) → (4, 4). σ = 2: the charged
    // composed(discreteGaussian(2, 1), 2) is (ε, 1e-5)-DP with ε ≈ 3.4. 40 000 draws each: the
    // estimate of ln(p/p′) has standard error < 0.02; with N_ℤ noise and random tie-breaks the
    // true ratios are about ln(0.76/0.5) = 0.42 and ln(0.5/0.24) = 0.73.
    const sigma = 2;
    const charged = accountEpsilon(voteEvent(sigma), 1e-5).bounds.upper;
    const r = seededRandom('empirical-eps');
    const freq = (votes: number[]) => {
      let zero = 0;
      for (let i = 0; i < 40_000; i++) if (aggregateVote(votes, 2, sigma, r).output.answer === 0) zero++;
      return zero / 40_000;
    };
    const p = freq([0, 0, 0, 0, 0, 1, 1, 1]);
    const pNeighbour = freq([0, 0, 0, 0, 1, 1, 1, 1]);
    const empirical = Math.max(Math.abs(Math.log(p / pNeighbour)), Math.abs(Math.log((1 - p) / (1 - pNeighbour))));
    expect(empirical).toBeGreaterThan(0.6); // the estimate sees the real leak …
    expect(empirical).toBeLessThan(charged); // … and stays below the charge
  });

  it('PTR: a released keyword set is the top-k set of every neighbour (one teacher’s set changed)', () => {
    const universe = 5;
    const subsets = Array.from({ length: 1 << universe }, (_, m) => new Set([...Array(universe).keys()].filter((i) => m & (1 << i))));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: (1 << universe) - 1 }), { minLength: 2, maxLength: 12 }), fc.integer(), (masks, seed) => {
        const sets = masks.map((m) => subsets[m]);
        const { output } = aggregateKeywordsPtr(sets, universe, 3, { epsilon: 100, delta: 1e-6 }, seededRandom(seed));
        if (output.items === null) return;
        const topK = (s: (Set<number> | null)[]) => Array.from(sortIndicesDescending(keywordCounts(s, universe)).subarray(0, output.k)).filter((i) => i < universe).sort((a, b) => a - b);
        for (let t = 0; t < sets.length; t++) {
          for (const replacement of [null, ...subsets]) {
            const neighbour = sets.map((s, i) => (i === t ? replacement : s));
            const counts = Array.from(keywordCounts(neighbour, universe)).concat(Array(Math.max(0, output.k + 1 - universe)).fill(0));
            const sorted = [...counts].sort((a, b) => b - a);
            expect(sorted[output.k - 1]).toBeGreaterThan(sorted[output.k]); // no tie at the boundary
            expect(topK(neighbour)).toEqual(output.items);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
