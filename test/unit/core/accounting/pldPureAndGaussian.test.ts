/**
 * The product pair of ε-DP mechanisms and Gaussians run on one Poisson sample
 * (pld/lossDistribution.ts pureAndGaussianLoss): it reduces to the Gaussian and to randomised
 * response, matches the unsampled composition as q → 1, lies between the sampled parts and the
 * sampled basic composition, and never above the (sound, looser) RDP bound.
 */
import { describe, expect, it } from 'vitest';
import { pldAccountant } from '../../../../core/accounting';
import { composed, gaussian, poissonSampled, pureDp, sequence } from '../../../../core/accounting/events';
import { gaussianLoss, pureAndGaussianLoss, randomizedResponseLoss } from '../../../../core/accounting/pld/lossDistribution';
import { rdpAccountant } from '../../../../core/accounting/rdp';

const POINTS = [-3, -1, -0.2, 0, 0.3, 1, 2.5, 5];

describe('pureAndGaussianLoss', () => {
  it('is the Gaussian with no ε-DP part, and randomised response with no Gaussian', () => {
    for (const e of POINTS) {
      const g = gaussianLoss(0.8).at(e);
      const mixed = pureAndGaussianLoss([], 0.8).at(e);
      expect(mixed.survival).toBeCloseTo(g.survival, 14);
      expect(mixed.survivalQ).toBeCloseTo(g.survivalQ, 14);
      expect(mixed.finiteDelta).toBeCloseTo(g.finiteDelta, 14);
      const rr = randomizedResponseLoss(1.2, 0).at(e);
      const pure = pureAndGaussianLoss([1.2], 0).at(e);
      expect(pure.survival).toBeCloseTo(rr.survival, 14);
      expect(pure.survivalQ).toBeCloseTo(rr.survivalQ, 14);
      expect(pure.finiteDelta).toBeCloseTo(rr.finiteDelta, 14);
    }
  });

  it('a sampled step at q → 1 costs what the unsampled composition costs', () => {
    const step = sequence([composed(pureDp(0.5), 2), gaussian(2, Math.SQRT2), gaussian(2.5, 2)]);
    const native = pldAccountant.epsilon(composed(step, 5), 1e-5).upper;
    const sampled = pldAccountant.epsilon(composed(poissonSampled(1 - 1e-9, step), 5), 1e-5).upper;
    expect(sampled).toBeCloseTo(native, 2);
  });

  it('lies between its parts sampled alone and the basic composition, and below the RDP bound', () => {
    const q = 0.1;
    const epsilon = (e: Parameters<typeof pldAccountant.epsilon>[0]) => pldAccountant.epsilon(composed(e, 100), 1e-5).upper;
    const mixed = epsilon(poissonSampled(q, sequence([pureDp(0.4), pureDp(0.4), gaussian(3, 1)])));
    expect(mixed).toBeGreaterThan(epsilon(poissonSampled(q, gaussian(3, 1))));
    expect(mixed).toBeLessThan(rdpAccountant.epsilon(composed(poissonSampled(q, sequence([pureDp(0.4), pureDp(0.4), gaussian(3, 1)])), 100), 1e-5).upper);
    const pureOnly = epsilon(poissonSampled(q, sequence([pureDp(0.4), pureDp(0.4)])));
    expect(mixed).toBeGreaterThan(pureOnly);
    expect(pureOnly).toBeLessThanOrEqual(epsilon(poissonSampled(q, pureDp(0.8))) + 1e-9);
    expect(pureOnly).toBeGreaterThan(epsilon(poissonSampled(q, pureDp(0.4))));
  });
});
