/**
 * Noise calibration. Reference: dp_accounting's PLD calibration (vdi 1e-4, brentq) and the
 * exact σ (mpmath) for q = 1. Tolerances: 0.5 % of dp_accounting's σ (the calibration
 * tolerance is 0.1 % and the two accountants agree to ≤ 0.15 % in ε); the certified upper ε
 * at the returned σ never exceeds the target.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrate, calibrateGaussianSigma, CalibrationError } from '../../../../core/accounting/calibration';
import { approxDp, composed, gaussian, pureDp, sequence } from '../../../../core/accounting/events';
import { pldAccountant } from '../../../../core/accounting/pld';
import { num, relativeError, vectors } from './rdpVectors';

describe('calibrateGaussianSigma', () => {
  it('matches dp_accounting’s PLD-calibrated σ on all 19 reference cases, never over the target', () => {
    const cases = vectors.sigma_calibration.cases;
    expect(cases.length).toBe(19);
    let worst = 0;
    for (const c of cases) {
      const { target_epsilon: epsilon, target_delta: delta, q, T } = c.inputs;
      const { sigma, epsilon: bounds } = calibrateGaussianSigma({ q, steps: T, epsilon, delta });
      const error = relativeError(sigma, c['dp_accounting_calibrate_pld_vdi_1e-4'].sigma);
      worst = Math.max(worst, error);
      expect(error, c.id).toBeLessThan(5e-3);
      expect(bounds.upper, c.id).toBeLessThanOrEqual(epsilon);
      if (c.exact_sigma) {
        const exact = num(c.exact_sigma);
        expect(sigma, c.id).toBeGreaterThanOrEqual(exact * (1 - 1e-12));
        expect(sigma, c.id).toBeLessThanOrEqual(exact * (1 + 1e-3));
      }
    }
    // Measured: 1.0e-3.
    expect(worst).toBeLessThan(2e-3);
  });

  it('is near-minimal: σ·(1 − 2·tolerance) overshoots the target', () => {
    const { sigma } = calibrateGaussianSigma({ q: 0.01, steps: 500, epsilon: 2, delta: 1e-6, tolerance: 1e-3 });
    const smaller = composed({ kind: 'poisson-sampled', q: 0.01, event: gaussian(sigma * (1 - 2e-3)), neighbouring: 'add-remove' }, 500);
    expect(pldAccountant.epsilon(smaller, 1e-6).upper).toBeGreaterThan(2);
  });

  it('scales with the sensitivity only through σ/Δ (σ is a noise multiplier)', () => {
    const a = calibrateGaussianSigma({ q: 1, steps: 10, epsilon: 1, delta: 1e-5 });
    const b = calibrateGaussianSigma({ q: 1, steps: 10, epsilon: 1, delta: 1e-5, sensitivity: 3 });
    expect(b.sigma).toBeCloseTo(a.sigma, 9);
  });

  it('never returns a σ over the target (random targets)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-3, max: 0.2, noNaN: true }),
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0.2, max: 8, noNaN: true }),
        (q, steps, epsilon) => {
          const { epsilon: bounds } = calibrateGaussianSigma({ q, steps, epsilon, delta: 1e-6 });
          expect(bounds.upper).toBeLessThanOrEqual(epsilon);
        },
      ),
      { numRuns: 6, seed: 7 },
    );
  });

  it('rejects impossible targets clearly', () => {
    expect(() => calibrateGaussianSigma({ q: 0.1, steps: 10, epsilon: 0, delta: 1e-5 })).toThrow(CalibrationError);
    expect(() => calibrateGaussianSigma({ q: 0, steps: 10, epsilon: 1, delta: 1e-5 })).toThrow(RangeError);
  });
});

describe('calibrate (generic)', () => {
  it('finds the largest per-step ε of an increasing family', () => {
    const family = (e: number) => composed(pureDp(e), 20);
    const result = calibrate({ family, target: { epsilon: 4, delta: 1e-6 }, accountant: pldAccountant, decreasing: false, tolerance: 1e-4 });
    expect(result.epsilon.upper).toBeLessThanOrEqual(4);
    expect(result.parameter).toBeGreaterThan(0.2); // advanced composition beats 20·ε₀ ≤ 4
    expect(pldAccountant.epsilon(family(result.parameter * (1 + 2e-4)), 1e-6).upper).toBeGreaterThan(4);
  });

  it('respects an explicit bracket and reports infeasible targets', () => {
    const family = (s: number) => composed(gaussian(s), 50);
    const inside = calibrate({ family, target: { epsilon: 1, delta: 1e-5 }, bracket: [10, 100], decreasing: true });
    expect(inside.parameter).toBeGreaterThan(10);
    expect(inside.epsilon.upper).toBeLessThanOrEqual(1);
    expect(() => calibrate({ family, target: { epsilon: 1, delta: 1e-5 }, bracket: [1, 2], decreasing: true })).toThrow(CalibrationError);
    // An (ε, δ) part with δ₀ above the target δ makes ε infinite for every noise level.
    const hopeless = (s: number) => sequence([approxDp(0.1, 1e-3), gaussian(s)]);
    expect(() => calibrate({ family: hopeless, target: { epsilon: 1, delta: 1e-4 }, decreasing: true })).toThrow(/no noise parameter/);
  });
});
