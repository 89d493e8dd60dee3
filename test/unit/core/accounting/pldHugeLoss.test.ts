/**
 * Privacy losses of hundreds to thousands of nats (an audit's per-query ε up to 1000, a Gaussian
 * with tiny σ inside a composition): the PLD accountant must either answer soundly or refuse
 * (UnsupportedByPldError, the facade then answers with RDP), never under-charge or return NaN.
 *
 * Truths in closed form: the Gaussian's δ(ε) (Balle & Wang 2018, analyticGaussian.ts);
 * composed with one pure ε₀-DP step (randomised response, atoms ±ε₀) it is the mixture
 * Σ p(x)·δ_G(ε − x); Poisson sampling at q by the dominating pairs of Zhu, Dong & Wang 2022.
 * Tolerances: an upper bound must be ≥ the truth (relative 1e-9 for float rounding of the
 * closed form); a lower bound ≤ the truth (same slack).
 */
import { describe, expect, it } from 'vitest';
import { accountDelta, accountEpsilon, pldAccountant, UnsupportedByPldError } from '../../../../core/accounting';
import { analyticGaussianLogDelta } from '../../../../core/accounting/analyticGaussian';
import { gaussian, poissonSampled, pureDp, sequence } from '../../../../core/accounting/events';
import { evaluateDirection } from '../../../../core/accounting/pld/direction';
import { discreteGaussianLoss } from '../../../../core/accounting/pld/discreteGaussianLoss';
import { gaussianLoss, type LossDistribution } from '../../../../core/accounting/pld/lossDistribution';
import { GridRangeError, lossRange } from '../../../../core/accounting/pld/discretise';

/** δ(t) of the Gaussian pair with μ = Δ/σ, for any real t (δ(−t) = 1 − e^{−t} + e^{−t}·δ(t)). */
const gaussianDelta = (mu: number, t: number): number =>
  t >= 0 ? Math.exp(analyticGaussianLogDelta(t, 1 / mu, 1)) : -Math.expm1(t) + Math.exp(t) * gaussianDelta(mu, -t);

/** Gaussian μ then pure ε₀: P(L_rr = ε₀) = 1/(1 + e^{−ε₀}), P(L_rr = −ε₀) the rest. */
const gaussianThenPure = (mu: number, epsilon0: number) => (epsilon: number): number => {
  const high = 1 / (1 + Math.exp(-epsilon0));
  return high * gaussianDelta(mu, epsilon - epsilon0) + (1 - high) * gaussianDelta(mu, epsilon + epsilon0);
};

/** Poisson-sampled Gaussian, worse of remove and add (log1p((e^ε − 1)/q) without overflow). */
const sampledGaussian = (mu: number, q: number) => (epsilon: number): number => {
  const threshold = epsilon + Math.log(-Math.expm1(-epsilon) / q + Math.exp(-epsilon));
  const remove = q * gaussianDelta(mu, threshold);
  const weight = 1 - (1 - q) * Math.exp(epsilon);
  return Math.max(remove, weight > 0 ? weight * gaussianDelta(mu, Math.log((q * Math.exp(epsilon)) / weight)) : 0);
};

/** The smallest ε with δ(ε) ≤ target, by bisection (δ is non-increasing). */
function epsilonOf(delta: (epsilon: number) => number, target: number): number {
  let lo = 0;
  let hi = 1;
  while (delta(hi) > target) [lo, hi] = [hi, 2 * hi];
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (delta(mid) > target) lo = mid;
    else hi = mid;
  }
  return hi;
}

const SLACK = 1e-9;

const cases = [
  { name: 'Gaussian σ = 0.02 then pure ε = 1', event: sequence([gaussian(0.02), pureDp(1)]), truth: gaussianThenPure(50, 1) },
  { name: 'Gaussian σ = 0.02 then pure ε = 1000', event: sequence([gaussian(0.02), pureDp(1000)]), truth: gaussianThenPure(50, 1000) },
  { name: 'Gaussian σ = 0.05 then pure ε = 1', event: sequence([gaussian(0.05), pureDp(1)]), truth: gaussianThenPure(20, 1) },
  { name: 'Poisson(0.5)-sampled Gaussian σ = 0.01', event: poissonSampled(0.5, gaussian(0.01)), truth: sampledGaussian(100, 0.5) },
  { name: 'Poisson(0.1)-sampled Gaussian σ = 0.01', event: poissonSampled(0.1, gaussian(0.01)), truth: sampledGaussian(100, 0.1) },
  { name: 'Poisson(0.01)-sampled Gaussian σ = 0.003', event: poissonSampled(0.01, gaussian(0.003)), truth: sampledGaussian(1 / 0.003, 0.01) },
];

describe('accounting at losses of thousands of nats', () => {
  it.each(cases)('$name: the facade’s ε(δ) brackets the closed form', ({ event, truth }) => {
    for (const delta of [1e-5, 1e-9]) {
      const exact = epsilonOf(truth, delta);
      const { bounds } = accountEpsilon(event, delta);
      expect(bounds.upper).toBeGreaterThanOrEqual(exact * (1 - SLACK));
      expect(Number.isFinite(bounds.upper)).toBe(true);
      expect(bounds.lower).toBeLessThanOrEqual(exact * (1 + SLACK));
      expect(bounds.lower <= bounds.estimate && bounds.estimate <= bounds.upper).toBe(true);
    }
  });

  it.each(cases)('$name: the facade’s δ(ε) brackets the closed form, no NaN', ({ event, truth }) => {
    for (const epsilon of [1, 100, 1000, 3000]) {
      const exact = truth(epsilon);
      const { bounds } = accountDelta(event, epsilon);
      expect(bounds.upper).toBeGreaterThanOrEqual(exact * (1 - SLACK));
      expect(bounds.lower).toBeLessThanOrEqual(exact * (1 + SLACK) + 1e-300);
      expect(bounds.lower <= bounds.estimate && bounds.estimate <= bounds.upper).toBe(true);
    }
  });

  it('the PLD accountant itself answers soundly or refuses (never NaN, never below the truth)', () => {
    for (const { event, truth } of cases) {
      for (const epsilon of [1, 1000]) {
        try {
          const bounds = pldAccountant.delta(event, epsilon);
          expect(bounds.upper).toBeGreaterThanOrEqual(truth(epsilon) * (1 - SLACK));
          expect(bounds.lower).toBeLessThanOrEqual(truth(epsilon) * (1 + SLACK) + 1e-300);
          expect(Number.isNaN(bounds.lower) || Number.isNaN(bounds.estimate)).toBe(false);
        } catch (error) {
          expect(error).toBeInstanceOf(UnsupportedByPldError);
        }
      }
    }
  });
});

describe('beyond the grid: losses of 10⁷ nats', () => {
  // Gaussian σ = 0.0002 (μ = 5000: mean loss 1.25·10⁷ nats) then pure ε = 1.
  const event = sequence([gaussian(0.0002), pureDp(1)]);
  const truth = gaussianThenPure(5000, 1);

  it('PLD refuses the event (UnsupportedByPldError), it does not truncate it', () => {
    expect(() => pldAccountant.epsilon(event, 1e-5)).toThrow(UnsupportedByPldError);
    expect(() => pldAccountant.delta(event, 1000)).toThrow(UnsupportedByPldError);
  });

  it('the facade answers with RDP’s sound upper bound', () => {
    const epsilon = accountEpsilon(event, 1e-5);
    expect(epsilon.accountant).toBe('rdp');
    expect(epsilon.bounds.upper).toBeGreaterThanOrEqual(epsilonOf(truth, 1e-5) * (1 - SLACK));
    const delta = accountDelta(event, 1.2e7);
    expect(delta.accountant).toBe('rdp');
    expect(delta.bounds.upper).toBeGreaterThanOrEqual(truth(1.2e7) * (1 - SLACK));
  });
});

describe('the grid path on a loss beyond e^709 (a discrete Gaussian with σ = 0.02: L = 1250 at the mode)', () => {
  // P(S = 0) ≥ 1 − 2e^{−1/(2σ²)}, so δ(ε) ≈ 1 − e^{ε − 1250} and ε(1e-5) > 1249.9999.
  const loss = discreteGaussianLoss(0.02, 1, 1);

  it('its loss distribution gives no NaN above 709 nats', () => {
    // Q(S = 0) = e^{−1250}/Z underflows in the table: that outcome's loss is then treated as
    // infinite, so finiteDelta may exceed the exact 1 − e^{ε−1250} (pessimistic), never fall below it.
    for (const epsilon of [700, 800, 1000, 1249]) {
      const { finiteDelta } = loss.at(epsilon);
      expect(finiteDelta).toBeGreaterThanOrEqual(-Math.expm1(epsilon - 1250) - 1e-12);
      expect(finiteDelta).toBeLessThanOrEqual(1);
    }
  });

  it('the direction’s upper ε is above the truth or the grid refuses (was: upper ε = 0)', () => {
    const range = lossRange(loss, 1e-16);
    expect(range.hi).toBeGreaterThanOrEqual(1250);
    try {
      const direction = evaluateDirection([{ loss, count: 1, range }], (range.hi - range.lo) / 2 ** 20, 1e-16);
      expect(direction.epsilonUpper(1e-5)).toBeGreaterThan(1249.9999);
      expect(direction.deltaUpper(1000)).toBeGreaterThan(0.999);
    } catch (error) {
      expect(error).toBeInstanceOf(GridRangeError);
    }
  });
});

describe('the grid refuses a loss distribution that overflows (NaN) instead of truncating it', () => {
  // A Gaussian (μ = 1) whose quantities read NaN past some loss, as e^{ε}·0 does in float64.
  const base = gaussianLoss(1);
  const overflowing = (from: number, to: number, field: 'finiteDelta' | 'survival'): LossDistribution => ({
    ...base,
    at: (epsilon) => (epsilon > from && epsilon < to ? { ...base.at(epsilon), [field]: NaN } : base.at(epsilon)),
  });

  it('lossRange does not take NaN for a negligible tail (was: the range ended at the first NaN)', () => {
    expect(() => lossRange(overflowing(3, Infinity, 'finiteDelta'), 1e-16)).toThrow(GridRangeError);
  });

  it('a NaN inside the window is refused (was: δ = NaN and ε = 0)', () => {
    const loss = overflowing(2, 3, 'survival');
    expect(() => evaluateDirection([{ loss, count: 4, range: { lo: -10, hi: 10 } }], 0.01, 1e-16)).toThrow(GridRangeError);
  });
});
