/**
 * Sampling without replacement (Wang–Balle–Kasiviswanathan 2019): the general Thm 9 bound and,
 * for the Gaussian mechanism, the tighter Thm 27 bound — per-order RDP against autodp's
 * implementations of both theorems, and the (ε, δ) they convert to after T steps (Balle et al.
 * 2020 conversion, orders up to 128; dp_accounting's Thm 27 with its default orders).
 */
import { describe, expect, it } from 'vitest';
import { composed, gaussian, laplace, pureDp, sampledWithoutReplacement, type PrivacyEvent } from '../../../../core/accounting/events';
import {
  RdpUnsupportedEventError, epsilonFromRdp, gaussianRdp, pureDpRdp, rdpCurve, withoutReplacementCurve,
} from '../../../../core/accounting/rdp';
import { gaussianLogEvenMoment } from '../../../../core/accounting/rdp/gaussianMoments';
import { DP_ACCOUNTING_ORDERS, relativeError, vectors } from './rdpVectors';

const POPULATION = 100_000;
const ORDERS_TO_128 = DP_ACCOUNTING_ORDERS.filter((a) => a <= 128);

/** A replace-one event of `kind` with noise σ and sensitivity 1, on a sample of q·n of n units. */
function wor(q: number, sigma: number, kind: 'gaussian' | 'discrete-gaussian' = 'gaussian'): PrivacyEvent {
  return sampledWithoutReplacement(Math.round(q * POPULATION), POPULATION, { kind, sigma, sensitivity: 1, neighbouring: 'replace-one' });
}

interface Reference {
  rdp_single_step_at_orders: Record<string, number>;
  epsilon_balle2020_conversion_orders_DEFAULT_up_to_128: number;
}

/**
 * autodp caps by the base Gaussian's α/(2σ²) only for Thm 9 and only above α = 2; we cap
 * everywhere (valid: subsampling never hurts), so we compare with min(autodp, α/(2σ²)).
 */
function expectOrders(reference: Reference, sigma: number, rdpAt: (orders: number[]) => number[], tolerance: number, label: string): void {
  const orders = Object.keys(reference.rdp_single_step_at_orders).map(Number);
  rdpAt(orders).forEach((value, i) => {
    const alpha = orders[i];
    const expected = Math.min(reference.rdp_single_step_at_orders[String(alpha)], gaussianRdp(alpha, sigma, 1));
    expect(relativeError(value, expected), `${label} α=${alpha}`).toBeLessThan(tolerance);
  });
}

describe('sampling without replacement, Gaussian (8 reference cases)', () => {
  const cases = vectors.sampled_without_replacement_gaussian_rdp.cases;

  it('Thm 9 (general): matches autodp at every reference order within 1e-9 relative (fractional: CGF interpolation)', () => {
    expect(cases.length).toBe(8);
    for (const c of cases) {
      const { q, sigma } = c.inputs;
      const base = { rdp: (alpha: number) => gaussianRdp(alpha, sigma, 1), epsilonInfinity: Infinity };
      expectOrders(c.autodp_thm9_general, sigma, (orders) => withoutReplacementCurve(orders, q, base), 1e-9, `q=${q} σ=${sigma}`);
    }
  });

  it('Thm 27 (Gaussian): matches autodp’s improved bound at every reference order within 1e-9 relative', () => {
    for (const c of cases) {
      const { q, sigma } = c.inputs;
      // Measured ≤ 8e-11 (σ = 5, α = 16: autodp's forward differences round there, our quadrature does not).
      expectOrders(c.autodp_thm27_improved, sigma, (orders) => rdpCurve(wor(q, sigma), orders).rdp, 1e-9, `q=${q} σ=${sigma}`);
    }
  });

  it('converts T steps to the reference ε: autodp Thm 27 (orders to 128) and dp_accounting (its default orders)', () => {
    for (const c of cases) {
      const { q, sigma, T, delta } = c.inputs;
      const label = `q=${q} σ=${sigma}`;
      const upTo128 = epsilonFromRdp(ORDERS_TO_128, rdpCurve(composed(wor(q, sigma), T), ORDERS_TO_128).rdp, delta).value;
      expect(relativeError(upTo128, c.autodp_thm27_improved.epsilon_balle2020_conversion_orders_DEFAULT_up_to_128), label).toBeLessThan(1e-9);
      const dpAccounting = epsilonFromRdp(DP_ACCOUNTING_ORDERS, rdpCurve(composed(wor(q, sigma), T), DP_ACCOUNTING_ORDERS).rdp, delta).value;
      expect(relativeError(dpAccounting, c.dp_accounting.epsilon_DEFAULT_RDP_ORDERS), label).toBeLessThan(1e-9);
    }
  });

  it('Thm 27 is never above Thm 9, and applies to Gaussians composed on the same sample but not to the discrete Gaussian', () => {
    const orders = [2, 3, 4.5, 8, 20, 64, 300, 2048];
    for (const [q, sigma] of [[0.01, 1], [0.5, 5], [0.2, 30]]) {
      const thm9 = withoutReplacementCurve(orders, q, { rdp: (alpha) => gaussianRdp(alpha, sigma, 1), epsilonInfinity: Infinity });
      const thm27 = rdpCurve(wor(q, sigma), orders).rdp;
      thm27.forEach((value, i) => expect(value, `q=${q} σ=${sigma} α=${orders[i]}`).toBeLessThanOrEqual(thm9[i] * (1 + 1e-12)));
      expect(rdpCurve(wor(q, sigma, 'discrete-gaussian'), orders).rdp).toEqual(thm9);
      // Two Gaussians of σ·√2 on the same sample are one Gaussian of σ.
      const half: PrivacyEvent = { kind: 'gaussian', sigma: sigma * Math.SQRT2, sensitivity: 1, neighbouring: 'replace-one' };
      const pair = sampledWithoutReplacement(Math.round(q * POPULATION), POPULATION, { kind: 'composed', event: half, count: 2, neighbouring: 'replace-one' });
      rdpCurve(pair, orders).rdp.forEach((value, i) => expect(relativeError(value, thm27[i])).toBeLessThan(1e-12));
    }
  });
});

describe('gaussianLogEvenMoment: E_Q[(P/Q − 1)^m] by quadrature', () => {
  it('matches the exact alternating sum where it does not cancel, and μ^m·(m−1)!! as μ → 0 where it does', () => {
    for (const mu of [0.5, 1, 2]) {
      const moment = gaussianLogEvenMoment(mu);
      for (const m of [2, 4, 6, 8, 12]) {
        let sum = 0;
        let binom = 1;
        for (let l = 0; l <= m; l++) {
          sum += ((m - l) % 2 ? -1 : 1) * binom * Math.exp((l * (l - 1) * mu * mu) / 2);
          binom = (binom * (m - l)) / (l + 1);
        }
        expect(relativeError(moment(m), Math.log(sum)), `μ=${mu} m=${m}`).toBeLessThan(1e-12);
      }
    }
    // μ = 1e-3: (P/Q − 1) ≈ μz, so M_m ≈ μ^m·(m − 1)!! (relative corrections O(m²μ²)); the
    // alternating sum would lose every digit here (terms ~C(m, m/2), result ~1e-24).
    const moment = gaussianLogEvenMoment(1e-3);
    for (const [m, doubleFactorial] of [[4, 3], [8, 105]]) {
      expect(relativeError(moment(m), m * Math.log(1e-3) + Math.log(doubleFactorial))).toBeLessThan(1e-4);
    }
    expect(() => moment(3)).toThrow(RangeError);
  });
});

describe('sampling without replacement, other base mechanisms', () => {
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
