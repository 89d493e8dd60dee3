/**
 * Count search: the boundary it returns against a brute-force scan for any nondecreasing
 * value (property), its worst-case number of evaluations (long flat runs included), and how
 * few it needs on the power laws ε follows (where exponential + binary search needs about
 * 2·log₂ n); with a reach, the same boundary.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largestWithinCap } from '../../../../core/math/countSearch';

/** The brute-force answer: the largest n in [from, limit] with value(n) ≤ cap, scanning up from `from`. */
function scan(value: (n: number) => number, cap: number, from: number, limit: number): number {
  let n = from;
  while (n < limit && value(n + 1) <= cap) n++;
  return n;
}

const search = (value: (n: number) => number, cap: number, from: number, limit: number) =>
  largestWithinCap({ value, cap, from: { n: from, value: value(from) }, limit });

/** A nondecreasing step function on [0, limit]: cumulative sums of non-negative increments, some zero (flat runs). */
const stepFunction = (limit: number) =>
  fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: limit + 1, maxLength: limit + 1 }).map((increments) => {
    const values = increments.reduce<number[]>((acc, x) => [...acc, (acc.at(-1) ?? 0) + x], []);
    return (n: number) => values[n];
  });

describe('largestWithinCap', () => {
  it('returns the brute-force boundary for any nondecreasing value, within 3·⌈log₂ limit⌉ + 2 evaluations (property)', () => {
    const limit = 300;
    fc.assert(
      fc.property(stepFunction(limit), fc.double({ min: 0, max: 200, noNaN: true }), fc.integer({ min: 0, max: 20 }), (value, cap, from) => {
        fc.pre(value(from) <= cap);
        const result = search(value, cap, from, limit);
        expect(result.count).toBe(scan(value, cap, from, limit));
        expect(result.atLimit).toBe(result.count === limit);
        expect(result.evaluations).toBeLessThanOrEqual(3 * Math.ceil(Math.log2(limit)) + 2);
      }),
      { seed: 20261123, numRuns: 500 },
    );
  });

  const powerLaw = (offsetMax: number) =>
    fc.tuple(fc.double({ min: 0, max: offsetMax, noNaN: true }), fc.double({ min: 1e-4, max: 1, noNaN: true }), fc.double({ min: 0.3, max: 1.5, noNaN: true }), fc.double({ min: 2, max: 20, noNaN: true }));

  /** Runs the search from 1 on a + b·n^p and checks the exact crossing; returns the evaluations. */
  function crossing([a, b, p, cap]: [number, number, number, number]): number {
    const value = (n: number) => a + b * n ** p;
    fc.pre(value(1) <= cap);
    const exact = Math.floor(((cap - a) / b) ** (1 / p));
    fc.pre(exact < 1_000_000 && value(exact + 1) > cap && value(exact) <= cap); // no rounding tie at the boundary
    const result = search(value, cap, 1, 1_000_000);
    expect(result.count).toBe(exact);
    return result.evaluations;
  }

  it('finds the crossing of a power law b·n^p in at most 5 evaluations (property)', () => {
    // Exponential + binary search from 1 needs 2·log₂(crossing) ≈ 4–40 evaluations here.
    fc.assert(fc.property(powerLaw(0), (law) => {
      expect(crossing(law)).toBeLessThanOrEqual(5);
    }), { seed: 20261124, numRuns: 300 });
  });

  it('finds the crossing of an offset power law a + b·n^p within the worst-case bound (property)', () => {
    fc.assert(fc.property(powerLaw(2), (law) => {
      expect(crossing(law)).toBeLessThanOrEqual(3 * Math.ceil(Math.log2(1_000_000)) + 2);
    }), { seed: 20261125, numRuns: 300 });
  });

  it('brackets a long flat run just under the cap by doubling, within 4·⌈log₂ limit⌉ + 2 evaluations (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1_000_000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0.5, max: 0.999999, noNaN: true }), (limit, where, level) => {
        const jump = 1 + Math.floor(where * (limit - 1)); // first count over the cap
        const value = (n: number) => (n < jump ? level : 2);
        const result = search(value, 1, 0, limit);
        expect(result.count).toBe(Math.min(limit, jump - 1));
        expect(result.evaluations).toBeLessThanOrEqual(4 * Math.ceil(Math.log2(limit)) + 2);
      }),
      { seed: 20261126, numRuns: 300 },
    );
    // A review's case: flat at 0.999 up to n = 250 of 300 (48 evaluations before doubling).
    expect(search((n) => (n < 250 ? 0.999 : 2), 1, 0, 300).evaluations).toBeLessThanOrEqual(20);
  });

  it('with a reach (a further count cheap once n is known): the same boundary, and the reach asked while bracketing (property)', () => {
    const limit = 300;
    fc.assert(
      fc.property(stepFunction(limit), fc.double({ min: 0, max: 200, noNaN: true }), fc.integer({ min: 0, max: 20 }), fc.double({ min: 1, max: 8, noNaN: true }), (value, cap, from, factor) => {
        fc.pre(value(from) <= cap);
        const reach = (n: number) => Math.ceil(factor * n);
        const asked: number[] = [];
        const result = largestWithinCap({ value: (n) => (asked.push(n), value(n)), cap, from: { n: from, value: value(from) }, limit, reach });
        expect(result.count).toBe(scan(value, cap, from, limit));
        expect(result.evaluations).toBe(asked.length);
        // The first count asked, when within the cap, is followed by its reach (capped at the limit).
        if (asked.length > 0 && value(asked[0]) <= cap && Math.min(limit, reach(asked[0])) > asked[0]) expect(asked[1]).toBe(Math.min(limit, reach(asked[0])));
      }),
      { seed: 20261127, numRuns: 500 },
    );
  });

  it('stops at the limit when the limit stays within the cap, and starts from a count with value 0', () => {
    expect(search((n) => n / 1e9, 1, 0, 1_000_000)).toEqual({ count: 1_000_000, atLimit: true, evaluations: expect.any(Number) as number });
    expect(search((n) => (n === 0 ? 0 : 1 + n), 10, 0, 100).count).toBe(9);
    expect(search((n) => n, 5, 5, 100)).toMatchObject({ count: 5, atLimit: false });
    expect(search(() => 0, 1, 7, 7)).toEqual({ count: 7, atLimit: true, evaluations: 0 });
  });

  it('treats an infinite value as over the cap', () => {
    expect(search((n) => (n > 40 ? Infinity : n / 100), 1, 0, 1000).count).toBe(40);
  });

  it('refuses a starting count over the cap', () => {
    expect(() => largestWithinCap({ value: (n) => n, cap: 1, from: { n: 2, value: 2 }, limit: 10 })).toThrow(RangeError);
  });
});
