/** Break-even search and the query grid: minimality against a brute-force scan, monotone inputs only. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pureDp } from '../../../../core/accounting/events';
import { BREAK_EVEN_LIMIT, breakEvenQueries, queryGrid } from '../../../../core/planning/breakEven';

const query = pureDp(1);

describe('breakEvenQueries', () => {
  it('returns the smallest Q whose composed ε exceeds the prompt ε (property, any increasing cost)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 10, noNaN: true }), fc.double({ min: 0.5, max: 2, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), (a, power, synth) => {
        const epsilonOf = (_e: unknown, q: number) => a * q ** power;
        const q = breakEvenQueries(query, synth, epsilonOf);
        if (q === null) {
          expect(epsilonOf(query, BREAK_EVEN_LIMIT)).toBeLessThanOrEqual(synth);
        } else {
          expect(epsilonOf(query, q)).toBeGreaterThan(synth);
          if (q > 1) expect(epsilonOf(query, q - 1)).toBeLessThanOrEqual(synth);
        }
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });

  it('is null when even the search limit costs less', () => {
    expect(breakEvenQueries(query, 1, (_e, q) => q / (10 * BREAK_EVEN_LIMIT))).toBeNull();
  });
});

describe('queryGrid', () => {
  it('is increasing, distinct, from 1 to max', () => {
    for (const max of [1, 2, 7, 100, 123_456]) {
      const grid = queryGrid(max);
      expect(grid[0]).toBe(1);
      expect(grid.at(-1)).toBe(max);
      expect(grid.every((x, i) => i === 0 || x > grid[i - 1])).toBe(true);
      expect(grid.length).toBeLessThanOrEqual(16);
    }
  });
});
