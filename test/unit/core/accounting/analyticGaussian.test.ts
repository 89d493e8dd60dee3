/**
 * Analytic Gaussian mechanism (Balle & Wang 2018) against the reference's 40–50-digit values:
 * δ(ε) (compared in log space: several are below 1e-308), calibrated σ and ε.
 */
import { describe, expect, it } from 'vitest';
import {
  analyticGaussianDelta, analyticGaussianEpsilon, analyticGaussianLogDelta, analyticGaussianSigma,
} from '../../../../core/accounting/analyticGaussian';
import { logOfDecimal, num, relativeError, vectors } from './rdpVectors';

const section = vectors.analytic_gaussian;

describe('analyticGaussianLogDelta / analyticGaussianDelta', () => {
  it('matches every exact δ(ε) within 1e-10 relative, including δ = 1e-5564', () => {
    expect(section.delta_for_eps.length).toBe(126);
    for (const row of section.delta_for_eps) {
      const logDelta = analyticGaussianLogDelta(row.eps, row.sigma, row.sensitivity);
      // |Δ log δ| bounds the relative error of δ itself.
      expect(Math.abs(logDelta - logOfDecimal(row.delta_exact)), `ε=${row.eps} σ=${row.sigma} Δ=${row.sensitivity}`).toBeLessThan(1e-10);
      const exact = num(row.delta_exact);
      if (exact > 1e-300) expect(relativeError(analyticGaussianDelta(row.eps, row.sigma, row.sensitivity), exact)).toBeLessThan(1e-10);
    }
  });

  it('rejects invalid parameters', () => {
    expect(() => analyticGaussianDelta(-1, 1)).toThrow(RangeError);
    expect(() => analyticGaussianDelta(1, 0)).toThrow(RangeError);
    expect(() => analyticGaussianSigma(1, 0)).toThrow(RangeError);
    expect(() => analyticGaussianEpsilon(1, 1)).toThrow(RangeError);
  });
});

describe('analyticGaussianSigma', () => {
  it('matches the exact calibrated σ within 1e-9 relative and never exceeds the target δ', () => {
    expect(section.sigma_for_eps_delta.length).toBe(52);
    for (const row of section.sigma_for_eps_delta) {
      const sigma = analyticGaussianSigma(row.eps, row.delta, row.sensitivity);
      expect(relativeError(sigma, num(row.sigma_exact)), `ε=${row.eps} δ=${row.delta}`).toBeLessThan(1e-9);
      expect(sigma).toBeGreaterThanOrEqual(num(row.sigma_exact));
      expect(analyticGaussianDelta(row.eps, sigma, row.sensitivity)).toBeLessThanOrEqual(row.delta);
    }
  });

  it('honours an explicit tolerance', () => {
    const exact = num(section.sigma_for_eps_delta[0].sigma_exact);
    const coarse = analyticGaussianSigma(section.sigma_for_eps_delta[0].eps, section.sigma_for_eps_delta[0].delta, 1, { relativeTolerance: 1e-3 });
    expect(coarse).toBeGreaterThanOrEqual(exact);
    expect(coarse).toBeLessThanOrEqual(exact * (1 + 1e-3));
  });
});

describe('analyticGaussianEpsilon', () => {
  it('matches the exact ε(σ, δ) within 1e-9 relative, never below it', () => {
    expect(section.eps_for_sigma_delta.length).toBe(18);
    for (const row of section.eps_for_sigma_delta) {
      const epsilon = analyticGaussianEpsilon(row.sigma, row.delta, row.sensitivity);
      expect(relativeError(epsilon, num(row.epsilon_exact)), `σ=${row.sigma} δ=${row.delta}`).toBeLessThan(1e-9);
      expect(epsilon).toBeGreaterThanOrEqual(num(row.epsilon_exact));
    }
    expect(analyticGaussianEpsilon(100, 0.5)).toBe(0); // δ(0) = 2Φ(1/200) − 1 ≈ 0.004 < 0.5
  });
});
