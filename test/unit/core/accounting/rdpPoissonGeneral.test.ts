/**
 * The general Poisson-subsampled RDP bound (Zhu & Wang 2019, Thm 6; core/accounting/rdp/poissonGeneral.ts):
 * it must never fall below what is known exactly — the sampled Gaussian's RDP (Mironov, Talwar & Zhang 2019)
 * and the PLD accountant's lower bound for a sampled ε-DP step — and must still amplify (fall with q).
 */
import { describe, expect, it } from 'vitest';
import { pldAccountant } from '../../../../core/accounting';
import { composed, gaussian, poissonSampled, pureDp, sequence } from '../../../../core/accounting/events';
import { rdpAccountant } from '../../../../core/accounting/rdp';
import { gaussianRdp } from '../../../../core/accounting/rdp/mechanisms';
import { poissonGaussianRdp } from '../../../../core/accounting/rdp/poissonGaussian';
import { poissonGeneralRdp } from '../../../../core/accounting/rdp/poissonGeneral';

const INTEGERS = Array.from({ length: 63 }, (_, i) => i + 2);

describe('general Poisson-subsampled RDP bound', () => {
  it('lies above the exact sampled-Gaussian RDP, within a factor 3 + a little at small q', () => {
    for (const [q, sigma] of [[0.01, 1], [0.1, 2], [0.3, 0.8]] as const) {
      const general = poissonGeneralRdp(INTEGERS, q, (l) => gaussianRdp(l, sigma, 1), (i) => gaussianRdp(INTEGERS[i], sigma, 1));
      INTEGERS.forEach((alpha, i) => {
        const exact = poissonGaussianRdp(alpha, q, sigma);
        expect(general[i]).toBeGreaterThanOrEqual(exact * (1 - 1e-9));
        if (alpha <= 8 && q <= 0.1) expect(general[i]).toBeLessThanOrEqual(3.5 * exact + 1e-12);
      });
    }
  });

  it('equals the inner curve at q = 1 and never exceeds it', () => {
    const inner = (l: number) => gaussianRdp(l, 1.5, 1);
    expect(poissonGeneralRdp([2, 5.5, 30], 1, inner, (i) => inner([2, 5.5, 30][i]))).toEqual([inner(2), inner(6), inner(30)].map((v, i) => Math.min(v, inner([2, 5.5, 30][i]))));
  });

  it('gives a sampled ε-DP step an ε no smaller than the tight PLD lower bound, and not far above its upper bound', () => {
    for (const [q, epsilon] of [[0.05, 1], [0.2, 2], [0.01, 2.5]] as const) {
      const event = composed(poissonSampled(q, pureDp(epsilon)), 50);
      const pld = pldAccountant.epsilon(event, 1e-6);
      const rdp = rdpAccountant.epsilon(event, 1e-6).upper;
      expect(rdp).toBeGreaterThanOrEqual(pld.lower);
      expect(rdp).toBeLessThan(3 * pld.upper);
    }
  });

  it('takes a mixed step (ε-DP splits then Gaussians on one sample) and amplifies it', () => {
    const step = sequence([composed(pureDp(1), 2), gaussian(2, Math.SQRT2), gaussian(3, 2)]);
    const at = (q: number) => rdpAccountant.epsilon(composed(poissonSampled(q, step), 20), 1e-6).upper;
    expect(at(0.01)).toBeLessThan(at(0.1));
    expect(at(0.1)).toBeLessThan(at(0.5));
    expect(at(0.5)).toBeLessThanOrEqual(rdpAccountant.epsilon(composed(step, 20), 1e-6).upper + 1e-9);
  });
});
