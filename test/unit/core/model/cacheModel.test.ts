/**
 * The reference learner's cache model: its unigram total is kept as tokens are counted (it was
 * summed over every distinct token again at each prediction), and `apply` is the documented
 * Witten–Bell mixture (cacheModel.ts) computed here from the counts directly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CacheModel } from '../../../../core/model/reference/cacheModel';

const VOCAB = 6;

/** P(w) per the formula in cacheModel.ts, from plain counts of `counted` (the tokens pushed with count = true). */
function expected(history: number[], counted: boolean[], background: number[]): number[] {
  let out = [...background];
  const kept = history.filter((_, i) => counted[i]);
  if (kept.length > 0) {
    const mu = (0.15 * kept.length) / (kept.length + 50);
    out = out.map((p, w) => (1 - mu) * p + (mu * kept.filter((t) => t === w).length) / kept.length);
  }
  for (let k = 1; k <= 3 && k <= history.length; k++) {
    const context = history.slice(history.length - k).join(',');
    const followers: number[] = [];
    for (let i = k; i < history.length; i++) if (counted[i] && history.slice(i - k, i).join(',') === context) followers.push(history[i]);
    if (followers.length === 0) break;
    const types = new Set(followers).size;
    out = out.map((p, w) => (types * p + followers.filter((t) => t === w).length) / (followers.length + types));
  }
  return out;
}

describe('CacheModel', () => {
  it('counts the tokens it is asked to count, once each', () => {
    const cache = new CacheModel([1, 2, 1]);
    cache.push(3, false);
    cache.push(4);
    expect(cache.counted).toBe(4);
    expect(cache.length).toBe(5);
    const out = new Float64Array(VOCAB).fill(1 / VOCAB);
    cache.apply(out);
    cache.apply(out.fill(1 / VOCAB));
    expect(cache.counted).toBe(4);
  });

  it('applies the Witten–Bell cache mixture of the counts (fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: VOCAB - 1 }), fc.boolean()), { minLength: 1, maxLength: 40 }), (pushes) => {
        const cache = new CacheModel();
        for (const [token, count] of pushes) cache.push(token, count);
        const background = Array.from({ length: VOCAB }, (_, w) => (w + 1) / ((VOCAB * (VOCAB + 1)) / 2));
        const out = Float64Array.from(background);
        cache.apply(out);
        const want = expected(pushes.map(([t]) => t), pushes.map(([, c]) => c), background);
        want.forEach((p, w) => expect(out[w]).toBeCloseTo(p, 12));
        expect(out.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      }),
      { seed: 18, numRuns: 200 },
    );
  });
});
