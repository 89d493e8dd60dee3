/** Log-space helpers: exact limits and full relative precision where naive forms cancel. */
import { describe, expect, it } from 'vitest';
import { log1mExp, logAddExp, logExpm1 } from '../../../../core/math/logSpace';

describe('logAddExp', () => {
  it('adds in log space without overflow and handles ±∞', () => {
    expect(logAddExp(1000, 1000)).toBeCloseTo(1000 + Math.LN2, 12);
    expect(logAddExp(-Infinity, 3)).toBe(3);
    expect(logAddExp(-Infinity, -Infinity)).toBe(-Infinity);
    expect(logAddExp(Infinity, 2)).toBe(Infinity);
    expect(logAddExp(0, -40)).toBeCloseTo(4.248354255291589e-18, 30);
  });
});

describe('log1mExp and logExpm1', () => {
  it('keep full relative precision near 0 and never overflow', () => {
    // log(1 − e^{−1e-10}) = log(1e-10 − 5e-21 + …)
    expect(log1mExp(-1e-10)).toBeCloseTo(Math.log(1e-10) - 5e-11, 14);
    expect(log1mExp(-50)).toBeCloseTo(-Math.exp(-50), 40);
    expect(log1mExp(0)).toBe(-Infinity);
    expect(log1mExp(-Infinity)).toBeCloseTo(0, 300);
    expect(() => log1mExp(1)).toThrow(RangeError);
    expect(logExpm1(1e-10)).toBeCloseTo(Math.log(1e-10) + 5e-11, 14);
    expect(logExpm1(800)).toBe(800);
    expect(logExpm1(0)).toBe(-Infinity);
  });
});
