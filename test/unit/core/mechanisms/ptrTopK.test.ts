/**
 * PTR top-k with a privately chosen k: ⊥ on unstable boundaries, the exact top-k̂ set on
 * stable ones, δ charged on every call, and an empirical (ε, δ) check on neighbours whose
 * released set differs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ptrThreshold, ptrTopK, ptrTopKEvent } from '../../../../core/mechanisms/ptrTopK';
import { seededRandom } from '../../../../core/random/seededRandom';
import { wilson } from '../random/stats';

const base = { maxK: 5, epsilonSelect: 1, epsilonTest: 1, delta: 1e-6 };

describe('ptrTopK', () => {
  it('returns ⊥ when every gap is unstable (gaps ≤ Δ): a pass would need Lap noise > threshold', () => {
    // dist = max(0, g − 1) = 0 for every k; P[pass] = δ = 1e−6 per call.
    const r = seededRandom('ptr-unstable');
    const counts = [10, 9, 8, 7, 6, 5, 5, 4];
    for (let i = 0; i < 2000; i++) expect(ptrTopK(counts, base, r).output.items).toBeNull();
  });

  it('returns ⊥ when the chosen gap is small even if another gap is large', () => {
    // Gap 1 at k = 1 and a huge gap (490) at k = 3; a public prior of 495 on k = 1 makes it
    // the usual choice. The test must look at the gap at k = 1 — unstable — and return ⊥.
    const r = seededRandom('ptr-exact-boundary');
    const counts = [501, 500, 500, 10, 9];
    let chosenOne = 0;
    for (let i = 0; i < 3000; i++) {
      const { output } = ptrTopK(counts, { ...base, prior: [495, 0, 0, 0, 0] }, r);
      if (output.k === 1) {
        chosenOne++;
        expect(output.items).toBeNull();
      }
    }
    expect(chosenOne).toBeGreaterThan(0);
  });

  it('releases the exact top-k̂ set (unordered) on a stable boundary', () => {
    const r = seededRandom('ptr-stable');
    const counts = [3, 900, 7, 1000, 950, 2, 1];
    let released = 0;
    for (let i = 0; i < 200; i++) {
      const { output } = ptrTopK(counts, { ...base, maxK: 6 }, r);
      expect(output.k).toBe(3); // the gap 950 − 7 dominates every other gap by far
      if (output.items) {
        released++;
        expect(output.items).toEqual([1, 3, 4]);
      }
    }
    expect(released).toBe(200); // dist ≈ 942 ≫ threshold ≈ 13.1
  });

  it('whenever it releases, the set is the true top-k̂ (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 2, maxLength: 30 }), fc.integer(), (counts, seed) => {
        const { output } = ptrTopK(counts, { maxK: 10, epsilonSelect: 1, epsilonTest: 2, delta: 1e-3 }, seededRandom(seed));
        if (output.items === null) return true;
        const kth = [...counts].sort((a, b) => b - a)[output.k - 1];
        return output.items.length === output.k && output.items.every((i) => counts[i] >= kth) && new Set(output.items).size === output.k;
      }),
      { numRuns: 200 },
    );
  });

  it('charges sequence([pure(ε₁), approx(ε₂, δ)]) on every call, ⊥ or not', () => {
    const r = seededRandom(3);
    const expected = {
      kind: 'sequence',
      events: [
        { kind: 'pure', epsilon: 1, neighbouring: 'add-remove' },
        { kind: 'approx', epsilon: 1, delta: 1e-6, neighbouring: 'add-remove' },
      ],
      neighbouring: 'add-remove',
    };
    expect(ptrTopK([5, 4, 3], base, r).event).toEqual(expected);
    expect(ptrTopK([500, 4, 3], base, r).event).toEqual(expected);
    expect(ptrTopKEvent(base)).toEqual(expected);
    expect(() => ptrTopK([1, 2], { ...base, maxK: 0 }, r)).toThrow(/maxK/);
    expect(() => ptrTopK([1, 2], { ...base, delta: 0 }, r)).toThrow();
  });

  it('the test passes an unstable input with probability exactly δ (threshold ln(1/2δ)/ε₂)', () => {
    // With δ = 0.05 the pass rate of dist = 0 is measurable: P[Lap(1/ε₂) > ln(10)/ε₂] = 0.05.
    const r = seededRandom('ptr-delta');
    const params = { maxK: 1, epsilonSelect: 1, epsilonTest: 0.5, delta: 0.05 };
    expect(ptrThreshold(0.5, 0.05)).toBeCloseTo(Math.log(10) / 0.5, 12);
    const n = 40_000;
    let passed = 0;
    for (let i = 0; i < n; i++) if (ptrTopK([5, 5, 1], params, r).output.items) passed++;
    const ci = wilson(passed, n);
    expect(ci.lower).toBeLessThanOrEqual(0.05);
    expect(ci.upper).toBeGreaterThanOrEqual(0.05);
  });

  it('empirical (ε, δ): P_D[S] ≤ e^{ε₁+ε₂}·P_D′[S] + δ on neighbours with different top sets', () => {
    // D: item 0 leads by 2; D′ (one unit added to item 1): tie, the top-1 set is {0} by index
    // but unstable. Output event S = "k = 1 and {0} released".
    const r = seededRandom('ptr-privacy');
    const params = { maxK: 2, epsilonSelect: 0.5, epsilonTest: 1, delta: 0.02 };
    const epsilon = params.epsilonSelect + params.epsilonTest;
    const n = 60_000;
    const hit = (counts: number[]): boolean => {
      const { output } = ptrTopK(counts, params, r);
      return output.k === 1 && output.items !== null && output.items[0] === 0;
    };
    let hits = 0;
    let hitsPrime = 0;
    for (let i = 0; i < n; i++) {
      if (hit([4, 2, 0])) hits++;
      if (hit([4, 3, 0])) hitsPrime++;
    }
    const a = wilson(hits, n);
    const b = wilson(hitsPrime, n);
    expect(a.lower).toBeLessThanOrEqual(Math.exp(epsilon) * b.upper + params.delta);
    expect(b.lower).toBeLessThanOrEqual(Math.exp(epsilon) * a.upper + params.delta);
  });

  it('empirical ε₁ for k on neighbours whose item universes differ by one item, fewer items than maxK', () => {
    // D holds two items; D′ adds a unit that creates a third. Clamping maxK to d − 1 made
    // k = 2 impossible on D and likely on D′; with absent items counting 0 it is ε₁-close.
    const r = seededRandom('ptr-universe');
    const params = { maxK: 3, epsilonSelect: 0.5, epsilonTest: 1, delta: 1e-6 };
    const n = 20_000;
    const freq = (counts: number[]) => {
      const hits = [0, 0, 0, 0];
      for (let i = 0; i < n; i++) hits[ptrTopK(counts, params, r).output.k]++;
      return hits;
    };
    const [a, b] = [freq([5, 3]), freq([5, 3, 1])];
    expect(a[2]).toBeGreaterThan(0);
    for (let k = 1; k <= 3; k++) {
      expect(wilson(a[k], n).lower).toBeLessThanOrEqual(Math.exp(params.epsilonSelect) * wilson(b[k], n).upper);
      expect(wilson(b[k], n).lower).toBeLessThanOrEqual(Math.exp(params.epsilonSelect) * wilson(a[k], n).upper);
    }
  });

  it('takes a single item (or none) and never releases a padding item', () => {
    const r = seededRandom('ptr-single');
    const params = { maxK: 2, epsilonSelect: 50, epsilonTest: 50, delta: 1e-6 };
    expect(ptrTopK([80], params, r).output).toEqual({ k: 1, items: [0] });
    expect(ptrTopK([], params, r).output.items).toBeNull();
    expect(() => ptrTopK([3, -1], params, r)).toThrow(/non-negative/);
  });
});
