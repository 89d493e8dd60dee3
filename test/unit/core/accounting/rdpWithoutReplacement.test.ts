/**
 * Sampling without replacement (Wang–Balle–Kasiviswanathan 2019, Thm 9 general bound):
 * per-order RDP against autodp's implementation of the same theorem, and the (ε, δ) it
 * converts to after T steps (Balle et al. 2020 conversion, orders up to 128).
 */
import { describe, expect, it } from 'vitest';
import { composed, gaussian, laplace, pureDp, sampledWithoutReplacement, type PrivacyEvent } from '../../../../core/accounting/events';
import { RdpUnsupportedEventError, epsilonFromRdp, gaussianRdp, pureDpRdp, rdpCurve } from '../../../../core/accounting/rdp';
import { DP_ACCOUNTING_ORDERS, relativeError, vectors } from './rdpVectors';

const POPULATION = 100_000;

/** Gaussian with noise σ and replace-one ℓ2 sensitivity 1, on a sample of q·n of n units. */
function worGaussian(q: number, sigma: number): PrivacyEvent {
  const inner: PrivacyEvent = { kind: 'gaussian', sigma, sensitivity: 1, neighbouring: 'replace-one' };
  return sampledWithoutReplacement(Math.round(q * POPULATION), POPULATION, inner);
}

describe('sampling without replacement (WBK 2019 Thm 9)', () => {
  const cases = vectors.sampled_without_replacement_gaussian_rdp.cases;

  // autodp caps by the base Gaussian's α/(2σ²) except for α ≤ 2, where it returns ε'(2); we cap
  // everywhere (valid: subsampling never hurts), so we compare with min(autodp, α/(2σ²)).
  it('matches autodp Thm 9 at every reference order within 1e-9 relative (fractional: CGF interpolation)', () => {
    expect(cases.length).toBe(8);
    for (const c of cases) {
      const reference: Record<string, number> = c.autodp_thm9_general.rdp_single_step_at_orders;
      const orders = Object.keys(reference).map(Number);
      const { rdp } = rdpCurve(worGaussian(c.inputs.q, c.inputs.sigma), orders);
      orders.forEach((alpha, i) => {
        const expected = Math.min(reference[String(alpha)], gaussianRdp(alpha, c.inputs.sigma, 1));
        expect(relativeError(rdp[i], expected), `q=${c.inputs.q} σ=${c.inputs.sigma} α=${alpha}`).toBeLessThan(1e-9);
      });
    }
  });

  it('converts T steps to the reference ε (orders of dp_accounting up to 128)', () => {
    const orders = DP_ACCOUNTING_ORDERS.filter((a) => a <= 128);
    for (const c of cases) {
      const { q, sigma, T, delta } = c.inputs;
      const { rdp } = rdpCurve(composed(worGaussian(q, sigma), T), orders);
      const expected = c.autodp_thm9_general.epsilon_balle2020_conversion_orders_DEFAULT_up_to_128;
      expect(relativeError(epsilonFromRdp(orders, rdp, delta).value, expected), `q=${q} σ=${sigma}`).toBeLessThan(1e-9);
    }
  });

  it('for a pure-DP base mechanism, stays below both its curve and the amplified ε(∞)', () => {
    const inner: PrivacyEvent = { kind: 'pure', epsilon: 1, neighbouring: 'replace-one' };
    const { rdp } = rdpCurve(sampledWithoutReplacement(10, 1000, inner), [2, 8, 64]);
    const amplified = Math.log1p(0.01 * Math.expm1(1)); // Balle et al. 2018, substitution relation
    [2, 8, 64].forEach((alpha, i) => {
      expect(rdp[i]).toBeLessThan(pureDpRdp(alpha, 1));
      expect(rdp[i]).toBeLessThanOrEqual(amplified);
    });
    expect(rdpCurve(sampledWithoutReplacement(5, 5, inner), [3]).rdp[0]).toBe(pureDpRdp(3, 1));
  });

  it('refuses inner events whose sensitivity is stated under add/remove', () => {
    for (const inner of [gaussian(1), laplace(1), pureDp(1)]) {
      expect(() => rdpCurve(sampledWithoutReplacement(10, 100, inner))).toThrow(RdpUnsupportedEventError);
    }
  });
});
