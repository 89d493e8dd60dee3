/**
 * RDP of the Poisson-subsampled Gaussian against the reference: exact values (mpmath, 30
 * digits) at fractional and integer orders, then the (ε, δ) conversions of opacus (signed
 * series, the same formula) and dp_accounting (whose fractional series sums |terms|, an
 * upper bound, so ours may only be lower).
 */
import { describe, expect, it } from 'vitest';
import { composed, gaussian, poissonSampled } from '../../../../core/accounting/events';
import { deltaFromRdp, epsilonFromRdp, poissonGaussianRdp, rdpCurve } from '../../../../core/accounting/rdp';
import { DP_ACCOUNTING_ORDERS, OPACUS_ORDERS, num, relativeError, vectors } from './rdpVectors';

describe('poissonGaussianRdp', () => {
  it('matches the exact (mpmath quadrature) RDP within 1e-6 relative at every reference order', () => {
    const values = vectors.rdp_poisson_subsampled_gaussian_values.values;
    expect(values.length).toBe(117);
    let worst = 0;
    for (const v of values) {
      const error = relativeError(poissonGaussianRdp(v.order, v.q, v.sigma), num(v.rdp_exact_mpmath_quad));
      worst = Math.max(worst, error);
      expect(error, `q=${v.q} σ=${v.sigma} α=${v.order}`).toBeLessThan(1e-6);
    }
    // Measured: 8.6e-12 (float64 rounding of A_α − 1 ≈ (α−1)·ε(α) at q = 1e-4).
    expect(worst).toBeLessThan(1e-10);
  });

  it('stays accurate where A_α − 1 is tiny or the alternating tail is long (mpmath quad, 35 digits)', () => {
    // [q, σ, α, exact RDP], computed for this test with mpmath 1.3 quad over the defining integral.
    const cases: [number, number, number, number][] = [
      [0.5, 3, 1.05, 0.014802710819585514],
      [0.5, 10, 9.75, 0.01247545882411653],
      [0.5, 30, 1.25, 0.00017364727758158413],
      [0.9, 1, 2.75, 1.2403646099548735],
      [0.99, 2, 5.5, 0.6792261282564896],
      [1e-6, 0.3, 5.5, 13.669931540265889],
      [1e-3, 5, 1.05, 2.142481495798974e-8],
      [0.02, 0.2, 1.25, 1.200316336594576],
      [0.3, 0.7, 9.75, 8.607409941266695],
      [1e-4, 30, 9.75, 5.4196817115518973e-11],
    ];
    for (const [q, sigma, alpha, exact] of cases) {
      expect(relativeError(poissonGaussianRdp(alpha, q, sigma), exact), `q=${q} σ=${sigma} α=${alpha}`).toBeLessThan(1e-8);
    }
  });

  it('is finite and ordered at large orders and small σ (no overflow at α = 2048)', () => {
    for (const alpha of [256, 1024, 2048]) {
      const value = poissonGaussianRdp(alpha, 0.01, 0.3);
      expect(Number.isFinite(value)).toBe(true);
      // Never above the unsampled Gaussian's α/(2σ²), and close to it once q·e^{(α−1)/σ²} ≫ 1.
      expect(value).toBeLessThanOrEqual(alpha / (2 * 0.09));
      expect(value).toBeGreaterThan(0.99 * (alpha / (2 * 0.09)) + Math.log(0.01) / (alpha - 1));
    }
    expect(poissonGaussianRdp(7.5, 1, 2)).toBe(7.5 / 8);
  });
});

describe('Poisson-subsampled Gaussian (ε, δ) over the reference order grids', () => {
  const cases = vectors.poisson_subsampled_gaussian_epsilon.cases;

  it('reproduces opacus RDPAccountant ε (same signed series, same conversion) to 1e-6 relative', () => {
    let worst = 0;
    for (const c of cases) {
      const { q, sigma, T, delta } = c.inputs;
      const curve = rdpCurve(composed(poissonSampled(q, gaussian(sigma)), T), OPACUS_ORDERS);
      const { value } = epsilonFromRdp(OPACUS_ORDERS, curve.rdp, delta);
      const error = relativeError(value, c.opacus_rdp.epsilon);
      worst = Math.max(worst, error);
      expect(error, c.id).toBeLessThan(1e-6);
    }
    expect(worst).toBeGreaterThan(0); // the comparison ran
  });

  // dp_accounting's integer-order series is exact, like ours: at its optimum, when that is an
  // integer order, the conversion must agree exactly; over the whole grid we may only be lower.
  it('is never above dp_accounting RdpAccountant ε, and equal at its optimal order when that is an integer', () => {
    for (const c of cases) {
      const { q, sigma, T, delta } = c.inputs;
      const event = composed(poissonSampled(q, gaussian(sigma)), T);
      const grid = epsilonFromRdp(DP_ACCOUNTING_ORDERS, rdpCurve(event, DP_ACCOUNTING_ORDERS).rdp, delta).value;
      const { epsilon: reference, optimal_order: order } = c.dp_accounting_rdp;
      expect(grid, c.id).toBeLessThanOrEqual(reference * (1 + 1e-9));
      if (Number.isInteger(order)) {
        const atOrder = epsilonFromRdp([order], rdpCurve(event, [order]).rdp, delta).value;
        expect(relativeError(atOrder, reference), c.id).toBeLessThan(1e-9);
      }
    }
  });

  it('δ(ε) is never above dp_accounting RdpAccountant δ, and equal at its integer optimal order', () => {
    for (const c of vectors.poisson_subsampled_gaussian_delta.cases) {
      const { q, sigma, T, epsilon } = c.inputs;
      const event = composed(poissonSampled(q, gaussian(sigma)), T);
      const grid = deltaFromRdp(DP_ACCOUNTING_ORDERS, rdpCurve(event, DP_ACCOUNTING_ORDERS).rdp, epsilon).value;
      const { delta: reference, optimal_order: order } = c.dp_accounting_rdp;
      expect(grid).toBeLessThanOrEqual(reference * (1 + 1e-9));
      if (Number.isInteger(order)) {
        const atOrder = deltaFromRdp([order], rdpCurve(event, [order]).rdp, epsilon).value;
        expect(relativeError(atOrder, reference)).toBeLessThan(1e-9);
      }
    }
  });
});
