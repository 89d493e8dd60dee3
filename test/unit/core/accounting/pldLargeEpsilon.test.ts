/**
 * A lone pure ε-DP release at large ε (an analyst recording a coarse external release):
 * its loss is nearly deterministic, so the grid must be sized by the loss range, not by its
 * tiny spread (regression: ε = 50 asked for a 3·10¹¹-cell FFT and threw). A lone pure release is
 * now priced in closed form (optimalComposition.ts); wrapped in a Poisson sampler at q = 1 (no
 * sampling: the same loss) it still goes through the grid, which is what the regression is about.
 */
import { describe, expect, it } from 'vitest';
import { poissonSampled, pureDp } from '../../../../core/accounting/events';
import { pldAccountant } from '../../../../core/accounting/pld';

describe('PLD at large pure ε', () => {
  it.each([
    [30, 'closed form'],
    [50, 'closed form'],
    [100, 'closed form'],
    [30, 'grid'],
    [50, 'grid'],
    [100, 'grid'],
  ])('ε = %d (%s): bounds bracket the exact ε(δ) ≤ ε', (epsilon, path) => {
    const delta = 1e-6;
    const bounds = pldAccountant.epsilon(path === 'grid' ? poissonSampled(1, pureDp(epsilon)) : pureDp(epsilon), delta);
    // Randomised response is the worst case of pure ε-DP: δ(ε') = (e^ε − e^ε')/(1 + e^ε) for ε' < ε,
    // so ε(δ) = log(e^ε − δ(1 + e^ε)) = ε + log(1 − δ(1 + e^−ε)).
    const exact = epsilon + Math.log1p(-delta * (1 + Math.exp(-epsilon)));
    expect(bounds.upper).toBeGreaterThanOrEqual(exact - 1e-9);
    expect(bounds.upper).toBeLessThanOrEqual(epsilon);
    expect(bounds.lower).toBeLessThanOrEqual(exact + 1e-9);
  });
});
