/** Probability helpers: softmax, restriction with renormalisation, top-k, sampling. */
import { describe, expect, it } from 'vitest';
import { argmax, checkRestriction, logSumExp, probabilityOf, restrictDistribution, sampleIndex, softmax, topK } from '../../../../core/model/distribution';
import { firstStop } from '../../../../core/model/stopStrings';
import { seededRandom } from '../../../../core/random/seededRandom';

describe('distribution helpers', () => {
  it('softmax is stable for large logits and sums to 1', () => {
    const p = softmax([1000, 1001, 999, -Infinity]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 15);
    expect(p[3]).toBe(0);
    expect(p[1] / p[0]).toBeCloseTo(Math.E, 12);
    expect(logSumExp([Math.log(0.25), Math.log(0.75)])).toBeCloseTo(0, 15);
  });

  it('restricts to exactly the requested tokens, in their order, renormalised', () => {
    const full = Float64Array.from([0.1, 0.2, 0.3, 0.4]);
    const r = restrictDistribution(full, [3, 1]);
    expect(r.tokens).toEqual([3, 1]);
    expect(r.probs[0]).toBeCloseTo(0.4 / 0.6, 15);
    expect(r.probs[1]).toBeCloseTo(0.2 / 0.6, 15);
    expect(probabilityOf(r, 1)).toBeCloseTo(1 / 3, 15);
    expect(probabilityOf(r, 0)).toBe(0);
  });

  it('rejects empty, duplicate or out-of-vocabulary restriction sets', () => {
    expect(() => checkRestriction([], 4)).toThrow(/at least one/);
    expect(() => checkRestriction([1, 1], 4)).toThrow(/twice/);
    expect(() => checkRestriction([4], 4)).toThrow(/not in the vocabulary/);
    expect(() => checkRestriction([1.5], null)).toThrow(/not in the vocabulary/);
  });

  it('orders top-k by probability then id and samples in proportion', () => {
    expect(topK({ probs: Float64Array.from([0.2, 0.4, 0.4]) }, 2)).toEqual([{ token: 1, prob: 0.4 }, { token: 2, prob: 0.4 }]);
    expect(argmax([0.1, 0.5, 0.5])).toBe(1);
    const random = seededRandom(1);
    const counts = [0, 0, 0];
    for (let i = 0; i < 6000; i++) counts[sampleIndex([0.5, 0.3, 0.2], 1, random)]++;
    expect(counts[0] / 6000).toBeCloseTo(0.5, 1);
    expect(counts[2] / 6000).toBeCloseTo(0.2, 1);
    expect(sampleIndex([0.5, 0.3, 0.2], 0, random)).toBe(0);
  });

  it('finds the earliest stop string', () => {
    expect(firstStop('abc\n\ndef END', ['END', '\n\n'])).toBe(3);
    expect(firstStop('abc', ['x', ''])).toBeNull();
  });
});
