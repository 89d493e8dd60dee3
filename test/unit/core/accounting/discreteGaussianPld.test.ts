/**
 * The exact PLD of the discrete Gaussian (core/accounting/pld/discreteGaussianLoss.ts) against
 * δ(ε) summed by brute force over the integer lattice: plain (one coordinate) and a private vote
 * (two coordinates each moved by 1, Poisson-sampled at q, both neighbouring directions).
 * Tolerances: the PLD upper bound must lie above the exact δ and within 1 % of it (grid error);
 * the lower bound below it.
 */
import { describe, expect, it } from 'vitest';
import { accountDelta, accountEpsilon } from '../../../../core/accounting';
import { composed, discreteGaussian, gaussian, poissonSampled } from '../../../../core/accounting/events';

const pmf = (sigma: number, reach: number) => {
  const w = new Map<number, number>();
  let z = 0;
  for (let x = -reach; x <= reach; x++) z += Math.exp(-(x * x) / (2 * sigma * sigma));
  for (let x = -reach; x <= reach; x++) w.set(x, Math.exp(-(x * x) / (2 * sigma * sigma)) / z);
  return (x: number) => w.get(x) ?? 0;
};

/** max over both directions of Σ (P − e^ε Q)₊, P/Q given on a finite list of outcomes. */
function hockeyStick(outcomes: Array<[number, number]>, epsilon: number): number {
  let remove = 0;
  let add = 0;
  for (const [p, q] of outcomes) {
    remove += Math.max(0, p - Math.exp(epsilon) * q);
    add += Math.max(0, q - Math.exp(epsilon) * p);
  }
  return Math.max(remove, add);
}

describe('discrete Gaussian PLD', () => {
  it('one coordinate, Δ = 1: the exact δ(ε) (above the continuous Gaussian’s at ε = 1)', () => {
    const sigma = 1;
    const p = pmf(sigma, 60);
    const outcomes: Array<[number, number]> = [];
    for (let x = -60; x <= 61; x++) outcomes.push([p(x), p(x - 1)]);
    for (const epsilon of [0.5, 1, 2]) {
      const exact = hockeyStick(outcomes, epsilon);
      const { bounds, accountant } = accountDelta(discreteGaussian(sigma), epsilon);
      expect(accountant).toBe('pld');
      expect(bounds.upper).toBeGreaterThanOrEqual(exact * (1 - 1e-9));
      expect(bounds.upper).toBeLessThan(exact * 1.01);
      expect(bounds.lower).toBeLessThanOrEqual(exact * (1 + 1e-9));
    }
    // CKS 2020: at σ = 1, ε = 1 the discrete Gaussian's δ is about 11 % above the continuous one's.
    expect(hockeyStick(outcomes, 1)).toBeGreaterThan(1.05 * accountDelta(gaussian(sigma), 1).bounds.upper);
  });

  it('a Poisson-sampled vote (two coordinates moved by 1): the exact δ(ε) of both directions', () => {
    const sigma = 2;
    const q = 0.2;
    const reach = 40;
    const p = pmf(sigma, reach + 2);
    const outcomes: Array<[number, number]> = [];
    for (let a = -reach; a <= reach + 1; a++) {
      for (let b = -reach; b <= reach + 1; b++) {
        const without = p(a) * p(b); // Q: the unit absent
        const moved = p(a - 1) * p(b - 1); // the unit sampled: both coordinates moved (after reflecting one)
        outcomes.push([(1 - q) * without + q * moved, without]);
      }
    }
    const event = poissonSampled(q, composed(discreteGaussian(sigma, 1), 2));
    for (const epsilon of [0.25, 0.5, 1]) {
      const exact = hockeyStick(outcomes, epsilon);
      const { bounds } = accountDelta(event, epsilon);
      expect(bounds.upper).toBeGreaterThanOrEqual(exact * (1 - 1e-9));
      expect(bounds.upper).toBeLessThan(exact * 1.01);
      expect(bounds.lower).toBeLessThanOrEqual(exact * (1 + 1e-9));
    }
    // Composed over a batch, it is accounted (finite) and costs more than one query.
    const batch = accountEpsilon(composed(event, 100), 1e-6);
    expect(batch.accountant).toBe('pld');
    expect(batch.bounds.upper).toBeGreaterThan(accountEpsilon(event, 1e-6).bounds.upper);
    expect(batch.bounds.upper).toBeLessThan(Infinity);
  });

  it('nearly noiseless (σ ≪ Δ): charged as the dominating (ε₀, δ₀)-DP pair, never below the loss at the mode', () => {
    // At σ = 0.02 almost all mass sits at 0, whose loss is Δ²/2σ² = 1250 (one count) or 2500 (a vote).
    expect(accountEpsilon(discreteGaussian(0.02), 1e-5).bounds.upper).toBeGreaterThanOrEqual(1250 - 1e-4); // δ = 1e-5 of the mode's mass lowers ε by 1e-5
    const vote = accountEpsilon(poissonSampled(0.3, composed(discreteGaussian(0.02), 2)), 1e-5).bounds.upper;
    expect(vote).toBeGreaterThanOrEqual(2500 - 1e-4);
    expect(vote).toBeLessThan(Infinity);
    // Further still, RDP charges it (without the amplification: joint convexity), above the loss at the mode.
    const far = accountEpsilon(poissonSampled(0.3, composed(discreteGaussian(0.005), 2)), 1e-5);
    expect(far.accountant).toBe('rdp');
    expect(far.bounds.upper).toBeGreaterThanOrEqual(1 / 0.005 ** 2);
  });

  it('an ℓ2 sensitivity of 2 is never priced as one count moved by 2 (four counts moved by 1 cost more)', () => {
    // ‖(1, 1, 1, 1)‖₂ = 2: the event discreteGaussian(σ, 2) must cover it. One count moved by 2 gives
    // ε ≈ 16.0 at σ = 0.5, δ = 1e-3; four counts by 1 ≈ 19.8 (a review measured both).
    const four = accountEpsilon(composed(discreteGaussian(0.5, 1), 4), 1e-3).bounds.lower;
    const stated = accountEpsilon(discreteGaussian(0.5, 2), 1e-3);
    expect(stated.accountant).toBe('rdp');
    expect(stated.bounds.upper).toBeGreaterThanOrEqual(four);
    expect(accountEpsilon(poissonSampled(0.2, discreteGaussian(0.5, 2)), 1e-3).bounds.upper).toBeGreaterThanOrEqual(accountEpsilon(poissonSampled(0.2, composed(discreteGaussian(0.5, 1), 4)), 1e-3).bounds.lower);
  });
});
