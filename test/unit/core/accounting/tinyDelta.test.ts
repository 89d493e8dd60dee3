/**
 * δ below the PLD accountant's absolute slack (FFT rounding and truncated tails, ~1e-12):
 * its certified upper ε is infinite there, and the facade answers with RDP's finite upper
 * bound (keeping PLD's lower bound), so ε queries and calibration still work at δ = 1e-14.
 * Reference: k-fold pure ε₀-DP composition, whose worst case is randomised response — the
 * composed loss is ε₀(k − 2i) with i ~ Binomial(k, 1/(1 + e^ε₀)) — exact in closed form. The PLD
 * accountant prices that event in closed form itself (optimalComposition.ts);
 * wrapped in a Poisson sampler at q = 1 (no sampling: the same loss), it goes through the grid.
 */
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { calibrate } from '../../../../core/accounting/calibration';
import { composed, gaussian, poissonSampled, pureDp } from '../../../../core/accounting/events';
import { pldAccountant } from '../../../../core/accounting/pld';
import { searchEpsilon } from '../../../../electron/services/planner/fastAccounting';

/** Exact δ(ε) of k-fold ε₀-DP composition: Σ over losses ℓ > ε of P(ℓ)(1 − e^{ε−ℓ}), in log space per term. */
function exactDelta(epsilon0: number, k: number, epsilon: number): number {
  const logQ = -Math.log1p(Math.exp(epsilon0)); // log P(one step flips)
  const logP = epsilon0 + logQ;
  let logBinomial = 0; // log C(k, i)
  let delta = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logBinomial += Math.log((k - i + 1) / i);
    const loss = epsilon0 * (k - 2 * i);
    if (loss > epsilon) delta += Math.exp(logBinomial + (k - i) * logP + i * logQ) * -Math.expm1(epsilon - loss);
  }
  return delta;
}

function exactEpsilon(epsilon0: number, k: number, delta: number): number {
  let [lo, hi] = [0, epsilon0 * k];
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (exactDelta(epsilon0, k, mid) > delta) lo = mid;
    else hi = mid;
  }
  return hi;
}

describe('ε at δ below the PLD slack', () => {
  it.each([
    [0.5, 50, 1e-14],
    [0.1, 3000, 3e-12],
  ])('pure(%d) × %d at δ = %d on the grid: PLD alone is unbounded, the facade brackets the exact ε with RDP', (epsilon0, k, delta) => {
    const event = poissonSampled(1, composed(pureDp(epsilon0), k));
    expect(pldAccountant.epsilon(event, delta).upper).toBe(Infinity);
    const exact = exactEpsilon(epsilon0, k, delta);
    const result = accountEpsilon(event, delta, { crossCheck: false });
    expect(result.accountant).toBe('rdp');
    expect(result.bounds.upper).toBeGreaterThanOrEqual(exact * (1 - 1e-9));
    expect(result.bounds.upper).toBeLessThanOrEqual(epsilon0 * k);
    expect(result.bounds.lower).toBeLessThanOrEqual(exact * (1 + 1e-9));
    // The planner's 1 % accountant falls back in the same way.
    expect(searchEpsilon(event, delta)).toBe(result.bounds.upper);
  });

  it.each([
    [0.5, 50, 1e-14],
    [0.1, 3000, 3e-12],
  ])('pure(%d) × %d at δ = %d in closed form: PLD brackets the exact ε, no RDP needed', (epsilon0, k, delta) => {
    const event = composed(pureDp(epsilon0), k);
    const exact = exactEpsilon(epsilon0, k, delta);
    const result = accountEpsilon(event, delta, { crossCheck: false });
    expect(result.accountant).toBe('pld');
    expect(result.bounds.upper).toBeGreaterThanOrEqual(exact * (1 - 1e-9));
    expect(result.bounds.upper).toBeLessThanOrEqual(exact * (1 + 1e-9));
    expect(result.bounds.lower).toBeLessThanOrEqual(exact * (1 + 1e-9));
    expect(searchEpsilon(event, delta)).toBe(result.bounds.upper);
  });

  it('calibrates σ at δ = 1e-14 to an upper bound that meets the target (was: no parameter found)', () => {
    const family = (sigma: number) => composed(poissonSampled(0.01, gaussian(sigma)), 1000);
    const { parameter, epsilon } = calibrate({ family, target: { epsilon: 3, delta: 1e-14 }, decreasing: true });
    expect(epsilon.upper).toBeLessThanOrEqual(3);
    expect(epsilon.upper).toBeGreaterThan(3 * 0.99);
    expect(accountEpsilon(family(parameter), 1e-14).bounds.upper).toBe(epsilon.upper);
  });

  it('keeps the PLD answer wherever it is finite', () => {
    const event = composed(poissonSampled(0.01, gaussian(1)), 1000);
    expect(accountEpsilon(event, 1e-6).accountant).toBe('pld');
  });
});
