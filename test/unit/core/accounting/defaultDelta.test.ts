/** The default δ: ≪ 1/N for small datasets (at most 1e-5), 1/(10·N) for large ones; formatted as people read it. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultDelta, formatDelta } from '../../../../core/accounting/defaultDelta';

describe('defaultDelta', () => {
  it('is at most 1e-5 for small datasets, where 1/(10·N) was not ≪ 1/N (N = 360 gave 2.78e-4)', () => {
    expect(defaultDelta(360)).toBe(1e-5);
    expect(defaultDelta(360) * 360).toBeLessThan(0.004);
    expect(defaultDelta(1)).toBe(1e-5);
  });

  it('is 1/(10·N) from N = 10,000 on', () => {
    expect(defaultDelta(10_000)).toBe(1e-5);
    expect(defaultDelta(40_000)).toBe(1 / 400_000);
  });

  it('is always ≤ 1/(10·N) and never above 1e-5 (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e9 }), (n) => defaultDelta(n) <= 1 / (10 * n) && defaultDelta(n) <= 1e-5 && defaultDelta(n) > 0));
  });

  it('refuses a count that is not positive', () => {
    expect(() => defaultDelta(0)).toThrow(/positive/);
    expect(() => defaultDelta(Number.NaN)).toThrow(/positive/);
  });
});

describe('formatDelta', () => {
  it('writes three significant digits in exponent form, without trailing zeros', () => {
    expect(formatDelta(1 / 3600)).toBe('2.78e-4');
    expect(formatDelta(1e-5)).toBe('1e-5');
    expect(formatDelta(2.5e-6)).toBe('2.5e-6');
  });
});
