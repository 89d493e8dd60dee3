/**
 * The log-MGF behind the FFT window's Chernoff bounds (core/accounting/pld/window.ts): summed in
 * four interleaved chains from the dominant end, it equals the log of the direct sum
 * Σ mⱼ·e^{λ(offset+j)h} (taken in log space) to rounding, for either sign of λ, with zeros at
 * either end and terms that underflow.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logMgf } from '../../../../core/accounting/pld/window';

/** log Σ mⱼ·e^{λ(offset+j)h} by log-sum-exp over the positive masses. */
function directLogMgf(masses: Float64Array, offset: number, h: number, lambda: number): number {
  const logs = [...masses].flatMap((m, j) => (m > 0 ? [Math.log(m) + lambda * (offset + j) * h] : []));
  if (logs.length === 0) return -Infinity;
  const top = Math.max(...logs);
  return top + Math.log(logs.reduce((sum, l) => sum + Math.exp(l - top), 0));
}

describe('logMgf', () => {
  it('equals the direct log-sum-exp', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 1e-300, max: 1, noNaN: true })), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: -500, max: 500 }),
        fc.double({ min: 1e-4, max: 0.5, noNaN: true }),
        fc.double({ min: -400, max: 400, noNaN: true }),
        (values, offset, h, lambda) => {
          const masses = Float64Array.from(values);
          const expected = directLogMgf(masses, offset, h, lambda);
          const actual = logMgf({ offset, masses, infinityMass: 0 }, h, lambda);
          if (expected === -Infinity) expect(actual).toBe(-Infinity);
          else expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
