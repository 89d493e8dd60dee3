/**
 * Property tests (fast-check, fixed seed): the Poisson-subsampled Gaussian's RDP rises with α
 * and q and falls with σ; converted ε falls with δ and σ and rises with T; δ(ε) falls with ε.
 * Comparisons allow float64 noise (1e-12 relative, 1e-15 absolute).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composed, gaussian, poissonSampled } from '../../../../core/accounting/events';
import { poissonGaussianRdp, rdpAccountant } from '../../../../core/accounting/rdp';

const RUNS = { numRuns: 150, seed: 20261122 };
const notAbove = (a: number, b: number): boolean => a <= b * (1 + 1e-12) + 1e-15;

const q = fc.double({ min: 1e-4, max: 0.999, noNaN: true });
const sigma = fc.double({ min: 0.3, max: 20, noNaN: true });
/** Orders as the accountant uses them: fractional below 11, integers above. */
const order = fc.oneof(fc.double({ min: 1.05, max: 11, noNaN: true }), fc.integer({ min: 2, max: 512 }));

describe('RDP of the Poisson-subsampled Gaussian: monotonicity', () => {
  it('rises with the order α', () => {
    fc.assert(
      fc.property(q, sigma, order, order, (q, s, a, b) => notAbove(poissonGaussianRdp(Math.min(a, b), q, s), poissonGaussianRdp(Math.max(a, b), q, s))),
      RUNS,
    );
  });

  it('rises with the sampling rate q', () => {
    fc.assert(
      fc.property(q, q, sigma, order, (p, r, s, a) => notAbove(poissonGaussianRdp(a, Math.min(p, r), s), poissonGaussianRdp(a, Math.max(p, r), s))),
      RUNS,
    );
  });

  it('falls with the noise multiplier σ', () => {
    fc.assert(
      fc.property(q, sigma, sigma, order, (p, s, t, a) => notAbove(poissonGaussianRdp(a, p, Math.max(s, t)), poissonGaussianRdp(a, p, Math.min(s, t)))),
      RUNS,
    );
  });
});

describe('rdpAccountant: monotonicity of the conversions', () => {
  const steps = fc.integer({ min: 1, max: 5000 });
  const logDelta = fc.double({ min: -14, max: -2, noNaN: true });
  const event = (p: number, s: number, t: number) => composed(poissonSampled(p, gaussian(s)), t);
  const FEW = { numRuns: 60, seed: 7 };

  it('ε falls as δ grows', () => {
    fc.assert(
      fc.property(q, sigma, steps, logDelta, logDelta, (p, s, t, x, y) => {
        const e = event(p, s, t);
        return notAbove(rdpAccountant.epsilon(e, 10 ** Math.max(x, y)).upper, rdpAccountant.epsilon(e, 10 ** Math.min(x, y)).upper);
      }),
      FEW,
    );
  });

  it('ε falls with σ and rises with T', () => {
    fc.assert(
      fc.property(q, sigma, sigma, steps, steps, (p, s, u, t, v) => {
        const eps = (sg: number, n: number): number => rdpAccountant.epsilon(event(p, sg, n), 1e-6).upper;
        return notAbove(eps(Math.max(s, u), t), eps(Math.min(s, u), t)) && notAbove(eps(s, Math.min(t, v)), eps(s, Math.max(t, v)));
      }),
      FEW,
    );
  });

  it('δ(ε) falls as ε grows', () => {
    fc.assert(
      fc.property(q, sigma, steps, fc.double({ min: 0, max: 20, noNaN: true }), fc.double({ min: 0, max: 20, noNaN: true }), (p, s, t, a, b) => {
        const e = event(p, s, t);
        return notAbove(rdpAccountant.delta(e, Math.max(a, b)).upper, rdpAccountant.delta(e, Math.min(a, b)).upper);
      }),
      FEW,
    );
  });

  it('sanity: the properties are not vacuous (ε strictly changes over the ranges)', () => {
    const e = event(0.01, 1, 1000);
    expect(rdpAccountant.epsilon(e, 1e-3).upper).toBeLessThan(rdpAccountant.epsilon(e, 1e-9).upper);
  });
});
