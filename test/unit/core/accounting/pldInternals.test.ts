/**
 * Building blocks of the PLD accountant: FFT, closed-form loss distributions, the
 * subsampled dominating pairs, discretisation invariants, and the accountant on cases
 * with exact answers (pure ε-DP compositions are binomial) and at numerical extremes.
 */
import { describe, expect, it } from 'vitest';
import { analyticGaussianDelta } from '../../../../core/accounting/analyticGaussian';
import { approxDp, composed, gaussian, laplace, poissonSampled, pureDp, sampledWithoutReplacement, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { discretise, lossRange } from '../../../../core/accounting/pld/discretise';
import { fft } from '../../../../core/accounting/pld/fft';
import { gaussianLoss, laplaceLoss, randomizedResponseLoss, type LossDistribution } from '../../../../core/accounting/pld/lossDistribution';
import { pldAccountant, UnsupportedByPldError } from '../../../../core/accounting/pld';
import { subsampledAdd, subsampledRemove } from '../../../../core/accounting/pld/subsampling';
import { relativeError } from './rdpVectors';

describe('fft', () => {
  it('matches the naive DFT and inverts', () => {
    const n = 64;
    const re = Float64Array.from({ length: n }, (_, j) => Math.sin(0.7 * j) + 0.1 * j);
    const im = Float64Array.from({ length: n }, (_, j) => Math.cos(1.3 * j * j));
    const [re0, im0] = [re.slice(), im.slice()];
    fft(re, im);
    for (const k of [0, 1, 5, 31, 32, 63]) {
      let sr = 0;
      let si = 0;
      for (let j = 0; j < n; j++) {
        const angle = (-2 * Math.PI * j * k) / n;
        sr += re0[j] * Math.cos(angle) - im0[j] * Math.sin(angle);
        si += re0[j] * Math.sin(angle) + im0[j] * Math.cos(angle);
      }
      expect(re[k]).toBeCloseTo(sr, 10);
      expect(im[k]).toBeCloseTo(si, 10);
    }
    fft(re, im, true);
    for (let j = 0; j < n; j++) expect(re[j]).toBeCloseTo(re0[j], 12);
    expect(() => fft(new Float64Array(6), new Float64Array(6))).toThrow(RangeError);
  });
});

/** δ(ε) = E_P[(1 − e^{ε−L})₊] + P(∞) by Simpson's rule over the output x of a 1-D pair with densities p, q. */
function integratedDelta(p: (x: number) => number, q: (x: number) => number, epsilon: number, lo: number, hi: number): number {
  const steps = 200_000;
  const dx = (hi - lo) / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i++) {
    const x = lo + i * dx;
    const value = Math.max(0, p(x) - Math.exp(epsilon) * q(x));
    sum += value * (i === 0 || i === steps ? 1 : i % 2 ? 4 : 2);
  }
  return (sum * dx) / 3;
}

const normal = (mean: number, sd: number) => (x: number) => Math.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * Math.sqrt(2 * Math.PI));

describe('loss distributions', () => {
  it('Gaussian: δ(ε) is the analytic Gaussian δ, for negative ε too (δ(ε) = 1 − e^ε + e^ε·δ(−ε))', () => {
    const loss = gaussianLoss(1 / 0.7);
    for (const eps of [0, 0.3, 2, 10, 50]) {
      expect(relativeError(loss.at(eps).finiteDelta, analyticGaussianDelta(eps, 0.7))).toBeLessThan(1e-12);
      const mirrored = -Math.expm1(-eps) + Math.exp(-eps) * loss.at(eps).finiteDelta;
      expect(relativeError(loss.at(-eps).finiteDelta, mirrored)).toBeLessThan(1e-12);
    }
    // Far tail (δ ≈ 1e-170): no underflow in δ; beyond e^ε's range: no NaN from ∞·0.
    const far = loss.at(40);
    expect(far.finiteDelta).toBeGreaterThan(0);
    expect(far.finiteDelta).toBeLessThan(far.survival);
    expect(loss.at(800)).toEqual({ survival: 0, survivalQ: 0, finiteDelta: 0 });
  });

  it('Laplace and randomised response match direct integration / their point masses', () => {
    const lap = laplaceLoss(1);
    const laplaceDensity = (mean: number) => (x: number) => 0.5 * Math.exp(-Math.abs(x - mean));
    for (const eps of [-0.5, 0, 0.4, 0.99]) {
      expect(lap.at(eps).finiteDelta).toBeCloseTo(integratedDelta(laplaceDensity(1), laplaceDensity(0), eps, -40, 40), 7);
    }
    const rr = randomizedResponseLoss(1, 1e-3);
    const high = (1 - 1e-3) / (1 + Math.exp(-1));
    expect(rr.at(0.5).finiteDelta).toBeCloseTo(high * (1 - Math.exp(-0.5)), 15);
    expect(rr.infinityMass).toBe(1e-3);
  });

  it('Poisson subsampling: both dominating pairs match direct integration of their mixtures', () => {
    const q = 0.1;
    const sigma = 0.8;
    const p = normal(1, sigma);
    const q0 = normal(0, sigma);
    const mixture = (x: number) => (1 - q) * q0(x) + q * p(x);
    const remove = subsampledRemove(q, gaussianLoss(1 / sigma));
    const add = subsampledAdd(q, gaussianLoss(1 / sigma));
    for (const eps of [-0.05, 0, 0.05, 0.3, 1, 2.5]) {
      const label = `ε=${eps}`;
      expect(remove.at(eps).finiteDelta, label).toBeCloseTo(integratedDelta(mixture, q0, eps, -12, 13), 9);
      expect(add.at(eps).finiteDelta, label).toBeCloseTo(integratedDelta(q0, mixture, eps, -12, 13), 9);
    }
    expect(remove.minLoss).toBeCloseTo(Math.log1p(-q), 15);
    expect(add.maxLoss).toBeCloseTo(-Math.log1p(-q), 15);
  });
});

describe('discretise', () => {
  const cases: [string, LossDistribution][] = [
    ['subsampled Gaussian', subsampledRemove(0.01, gaussianLoss(1))],
    ['Gaussian', gaussianLoss(0.5)],
    ['(ε, δ)', randomizedResponseLoss(0.7, 1e-4)],
    ['Laplace', laplaceLoss(0.3)],
  ];
  it.each(cases)('%s: non-negative masses, mass and E[e^{−L}] kept by the upper PMF, labels carry all of P', (_, loss) => {
    const h = 1e-3;
    const { upper, labelsP, labelsQ } = discretise(loss, h, lossRange(loss, 1e-14));
    const total = (a: Float64Array) => a.reduce((s, x) => s + x, 0);
    for (const a of [upper.masses, labelsP.masses, labelsQ]) expect(Math.min(...a)).toBeGreaterThanOrEqual(0);
    expect(total(upper.masses) + upper.infinityMass).toBeCloseTo(1, 12);
    expect(total(labelsP.masses) + labelsP.infinityMass).toBeCloseTo(1, 12);
    // Connect-the-dots is a mean-preserving spread of u = e^{−L}: Σ mⱼe^{−xⱼ} = Q(L > −∞), which
    // is 1 − P(L = ∞) for these pairs (symmetric, or a remove pair of a Gaussian).
    const qMass = upper.masses.reduce((s, m, j) => s + m * Math.exp(-(upper.offset + j) * h), 0);
    expect(qMass).toBeCloseTo(1 - loss.infinityMass, 10);
  });
});

/** Exact δ(ε) of k-fold ε₀-DP (randomised response): a binomial sum. */
function pureComposition(epsilon0: number, k: number, epsilon: number): number {
  const high = 1 / (1 + Math.exp(-epsilon0));
  let logChoose = 0;
  let delta = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log((k - i + 1) / i);
    const loss = (2 * i - k) * epsilon0;
    if (loss > epsilon) delta += Math.exp(logChoose + i * Math.log(high) + (k - i) * Math.log1p(-high)) * -Math.expm1(epsilon - loss);
  }
  return delta;
}

describe('pldAccountant on exact cases', () => {
  it('pure ε-DP compositions: point masses on the grid, bounds around the binomial δ', () => {
    for (const [epsilon0, k] of [[0.1, 50], [1, 10], [0.5, 200]]) {
      for (const eps of [0, 0.5 * epsilon0 * Math.sqrt(k), 2 * epsilon0 * Math.sqrt(k)]) {
        const exact = pureComposition(epsilon0, k, eps);
        const b = pldAccountant.delta(composed(pureDp(epsilon0), k), eps);
        const label = `ε₀=${epsilon0} k=${k} ε=${eps}`;
        expect(b.lower, label).toBeLessThanOrEqual(exact * (1 + 1e-9) + 1e-14);
        expect(b.upper, label).toBeGreaterThanOrEqual(exact * (1 - 1e-9) - 1e-14);
        expect(Math.abs(b.estimate - exact), label).toBeLessThanOrEqual(1e-6 * exact + 1e-11);
      }
    }
  });

  it('(ε, δ)-DP parts: ε is ∞ when δ ≤ 1 − (1 − δ₀)^k, finite above', () => {
    const event = composed(approxDp(0.5, 1e-4), 20);
    const floor = -Math.expm1(20 * Math.log1p(-1e-4));
    expect(pldAccountant.epsilon(event, floor * 0.99).upper).toBe(Infinity);
    const b = pldAccountant.epsilon(event, 2 * floor);
    expect(Number.isFinite(b.upper)).toBe(true);
    expect(b.upper).toBeLessThanOrEqual(10);
    expect(pldAccountant.delta(event, 100).lower).toBeGreaterThanOrEqual(floor * (1 - 1e-9));
  });

  it('replace-one Gaussian and Laplace events use their stated sensitivity like add/remove ones', () => {
    const replace: PrivacyEvent = { ...gaussian(2, 1), neighbouring: 'replace-one' };
    expect(pldAccountant.epsilon(composed(replace, 10), 1e-6)).toEqual(pldAccountant.epsilon(composed(gaussian(2, 1), 10), 1e-6));
    const lap: PrivacyEvent = { ...laplace(2, 1), neighbouring: 'replace-one' };
    const b = pldAccountant.epsilon(lap, 1e-6);
    const exact = 0.5 + 2 * Math.log1p(-1e-6); // δ(ε) = 1 − e^{(ε−ε₀)/2}
    expect(b.lower).toBeLessThanOrEqual(exact);
    expect(b.upper).toBeGreaterThanOrEqual(exact);
  });

  it('stays finite and non-negative at extreme ε and δ', () => {
    const heavy = composed(poissonSampled(0.5, gaussian(0.1)), 100);
    const big = pldAccountant.epsilon(heavy, 1e-10);
    expect(Number.isFinite(big.upper)).toBe(true);
    expect(big.lower).toBeGreaterThan(10);
    const tail = pldAccountant.delta(heavy, 5000);
    expect(tail.lower).toBeGreaterThanOrEqual(0);
    expect(tail.upper).toBeLessThan(1e-10);
    const tiny = pldAccountant.epsilon(poissonSampled(1e-4, gaussian(50)), 1e-9);
    expect(tiny.lower).toBeGreaterThan(0);
    expect(tiny.upper).toBeLessThan(1e-3);
    expect(pldAccountant.epsilon(composed(gaussian(1), 0), 1e-5)).toEqual({ lower: 0, estimate: 0, upper: 0 });
  });
});

describe('pldAccountant errors', () => {
  it('refuses what it has no dominating pair for, with UnsupportedByPldError', () => {
    const replacePoisson: PrivacyEvent = { ...poissonSampled(0.1, { ...gaussian(1), neighbouring: 'replace-one' }), neighbouring: 'replace-one' };
    expect(() => pldAccountant.epsilon(replacePoisson, 1e-5)).toThrow(UnsupportedByPldError);
    expect(() => pldAccountant.epsilon(sampledWithoutReplacement(10, 100, { ...gaussian(1), neighbouring: 'replace-one' }), 1e-5)).toThrow(/without replacement/);
    const mixed = sequence([gaussian(1), { ...laplace(1), neighbouring: 'replace-one' }]);
    expect(() => pldAccountant.epsilon(mixed, 1e-5)).toThrow(UnsupportedByPldError);
    expect(() => pldAccountant.epsilon(poissonSampled(0.1, composed(laplace(1), 3)), 1e-5)).toThrow(/one Gaussian/);
    expect(() => pldAccountant.epsilon(gaussian(1), 0)).toThrow(RangeError);
    expect(() => pldAccountant.delta(gaussian(1), -1)).toThrow(RangeError);
  });
});
