/**
 * The RDP accountant's contract: bound triples, composition rules, relations, refusals,
 * and soundness against exact privacy curves (it must never report less than the truth).
 */
import { describe, expect, it } from 'vitest';
import {
  approxDp, composed, gaussian, laplace, poissonSampled, sequence, type PrivacyEvent,
} from '../../../../core/accounting/events';
import { analyticGaussianDelta } from '../../../../core/accounting/analyticGaussian';
import { createRdpAccountant, RdpUnsupportedEventError, rdpAccountant, rdpCurve } from '../../../../core/accounting/rdp';
import { num, relativeError, vectors } from './rdpVectors';

describe('rdpAccountant', () => {
  it('answers {lower: 0, estimate = upper} (RDP gives no lower bound)', () => {
    const eps = rdpAccountant.epsilon(composed(poissonSampled(0.01, gaussian(1)), 1000), 1e-5);
    expect(eps.lower).toBe(0);
    expect(eps.estimate).toBe(eps.upper);
    expect(eps.upper).toBeGreaterThan(0);
    const delta = rdpAccountant.delta(composed(poissonSampled(0.01, gaussian(1)), 1000), 2);
    expect(delta).toEqual({ lower: 0, estimate: delta.upper, upper: delta.upper });
    expect(rdpAccountant.name).toBe('rdp');
  });

  it('a curve is never taken from the cache for an order grid edited since (the cache keys on the grid itself)', () => {
    const step = poissonSampled(0.01, gaussian(1));
    const orders = [2, 3];
    const before = rdpCurve(step, orders).rdp;
    const accountant = createRdpAccountant(orders);
    const epsilonBefore = accountant.epsilon(composed(step, 100), 1e-5).upper;
    [orders[0], orders[1]] = [50, 60];
    expect(rdpCurve(step, orders).rdp).toEqual(rdpCurve(step, [50, 60]).rdp);
    expect(rdpCurve(step, orders).rdp[0]).toBeGreaterThan(1000 * before[0]);
    expect(accountant.epsilon(composed(step, 100), 1e-5).upper).toBe(epsilonBefore); // the accountant kept its own copy of the grid
  });

  it('is sound for the Gaussian mechanism: never below the exact ε of the composed Gaussian (q = 1)', () => {
    for (const c of vectors.poisson_subsampled_gaussian_epsilon.cases.filter((x: { inputs: { q: number } }) => x.inputs.q === 1)) {
      const { sigma, T, delta } = c.inputs;
      const { upper } = rdpAccountant.epsilon(composed(poissonSampled(1, gaussian(sigma)), T), delta);
      const exact = num(c.exact_analytic_gaussian.epsilon);
      expect(upper).toBeGreaterThanOrEqual(exact);
      expect(upper).toBeLessThan(exact * 1.5 + 0.5); // and not absurdly loose
    }
  });

  it('δ(ε) is consistent with ε(δ) and sound against the exact Gaussian δ', () => {
    const event = composed(gaussian(4), 10); // ≡ one Gaussian with σ/Δ = 4/√10
    for (const delta of [1e-3, 1e-6, 1e-10]) {
      const { upper: epsilon } = rdpAccountant.epsilon(event, delta);
      expect(rdpAccountant.delta(event, epsilon).upper).toBeLessThanOrEqual(delta * (1 + 1e-9));
      expect(analyticGaussianDelta(epsilon, 4 / Math.sqrt(10))).toBeLessThanOrEqual(delta);
    }
  });

  it('composes by adding curves: k then m equals k + m; Gaussians on one sample merge into σ_eff', () => {
    const step = poissonSampled(0.02, gaussian(1.1));
    const split = rdpCurve(sequence([composed(step, 30), composed(step, 70)])).rdp;
    const whole = rdpCurve(composed(step, 100)).rdp;
    split.forEach((r, i) => expect(relativeError(r, whole[i])).toBeLessThan(1e-14));
    const merged = rdpCurve(poissonSampled(0.02, sequence([gaussian(2, 1), gaussian(1, 0.5), composed(gaussian(4), 2)]))).rdp;
    const sigmaEff = 1 / Math.sqrt(1 / 4 + 1 / 4 + 2 / 16);
    rdpCurve(poissonSampled(0.02, gaussian(sigmaEff))).rdp.forEach((r, i) => expect(relativeError(merged[i], r)).toBeLessThan(1e-12));
  });

  it('returns ε = ∞ when δ does not exceed the (ε, δ) events’ accumulated δ, and 0 for nothing', () => {
    expect(rdpAccountant.epsilon(composed(approxDp(1, 1e-6), 10), 1e-6).upper).toBe(Infinity);
    expect(rdpAccountant.epsilon(sequence([]), 1e-6).upper).toBe(0);
    expect(rdpAccountant.epsilon(composed(laplace(1), 0), 1e-6).upper).toBe(0);
    expect(rdpAccountant.delta(sequence([]), 0).upper).toBe(0);
  });

  it('refuses what it cannot bound, with a typed error', () => {
    const unsupported: PrivacyEvent[] = [
      poissonSampled(0.1, approxDp(1, 1e-6)),
      { kind: 'poisson-sampled', q: 0.1, event: gaussian(1), neighbouring: 'replace-one' },
      sequence([gaussian(1), { kind: 'gaussian', sigma: 1, sensitivity: 1, neighbouring: 'replace-one' }]),
    ];
    for (const event of unsupported) expect(() => rdpAccountant.epsilon(event, 1e-5)).toThrow(RdpUnsupportedEventError);
    expect(() => rdpAccountant.epsilon(gaussian(1), 0)).toThrow(RangeError);
    expect(() => rdpAccountant.delta(gaussian(1), -1)).toThrow(RangeError);
    expect(() => rdpAccountant.epsilon(gaussian(-1), 1e-5)).toThrow(); // ZodError: σ must be positive
  });
});
