/**
 * Gaussian, Laplace, discrete Gaussian and discrete Laplace mechanisms: the events they
 * charge, the noise they add, and an empirical privacy test on neighbouring inputs.
 *
 * Empirical privacy: f(D) = 0 and f(D′) = Δ. For (ε, δ) accounting the most revealing event
 * is E = {y > τ*} where the privacy loss exceeds ε; there P_D′(E) − e^ε·P_D(E) = δ(ε)
 * exactly (Balle & Wang 2018, Thm 8). We estimate that difference from fixed-seed runs and
 * check (a) its lower confidence bound (Wilson, z = 4 on each side) stays ≤ the accounted
 * δ(ε) — the privacy claim — and (b) the point estimate is close to it — the accounting is
 * tight, so a wrong noise scale in either direction is caught.
 */
import { describe, expect, it } from 'vitest';
import { accountDelta, accountEpsilon, pldAccountant, rdpAccountant, UnsupportedByPldError } from '../../../../core/accounting';
import { discreteGaussian } from '../../../../core/accounting/events';
import { discreteGaussianMechanism } from '../../../../core/mechanisms/discreteGaussianMechanism';
import { discreteLaplaceMechanism } from '../../../../core/mechanisms/discreteLaplaceMechanism';
import { gaussianMechanism } from '../../../../core/mechanisms/gaussianMechanism';
import { laplaceMechanism, laplaceScaleFor } from '../../../../core/mechanisms/laplaceMechanism';
import { seededRandom } from '../../../../core/random/seededRandom';
import { empiricalEpsilon, ksCritical, ksStatistic, normalCdf, wilson } from '../random/stats';

/** Exact δ(ε) of the Gaussian mechanism with sensitivity Δ and noise σ (Balle & Wang 2018). */
function gaussianDelta(sigma: number, sensitivity: number, epsilon: number): number {
  const a = sensitivity / (2 * sigma);
  const b = (epsilon * sigma) / sensitivity;
  return normalCdf(a - b) - Math.exp(epsilon) * normalCdf(-a - b);
}

/** Exact δ(ε) of the 1-d discrete Gaussian with integer shift Δ (CKS §2, by summation). */
function discreteGaussianDelta(sigma: number, shift: number, epsilon: number): number {
  const L = Math.ceil(40 * sigma) + 40;
  const w = (y: number): number => Math.exp(-(y * y) / (2 * sigma * sigma));
  let z = 0;
  for (let y = -L; y <= L; y++) z += w(y);
  let delta = 0;
  for (let y = -L; y <= L; y++) delta += Math.max(0, w(y - shift) / z - (Math.exp(epsilon) * w(y)) / z);
  return delta;
}

function deltaCheck(hitsPrime: number, hits: number, n: number, epsilon: number): { lower: number; estimate: number } {
  const a = wilson(hitsPrime, n);
  const b = wilson(hits, n);
  return { lower: a.lower - Math.exp(epsilon) * b.upper, estimate: hitsPrime / n - (Math.exp(epsilon) * hits) / n };
}

describe('gaussianMechanism', () => {
  it('charges gaussian(σ, Δ₂) and adds N(0, σ²) to every coordinate (KS, p = 0.001)', () => {
    const r = seededRandom('gm-ks');
    const values = new Float64Array(20_000).fill(5);
    const { output, event } = gaussianMechanism(values, { sigma: 2, l2Sensitivity: Math.SQRT2 }, r);
    expect(event).toEqual({ kind: 'gaussian', sigma: 2, sensitivity: Math.SQRT2, neighbouring: 'add-remove' });
    expect(ksStatistic(output, (x) => normalCdf((x - 5) / 2))).toBeLessThan(ksCritical(values.length));
    expect(() => gaussianMechanism([1], { sigma: 0, l2Sensitivity: 1 }, r)).toThrow();
    expect(() => gaussianMechanism([Number.NaN], { sigma: 1, l2Sensitivity: 1 }, r)).toThrow();
  });

  it('empirical privacy: δ(ε) on the optimal event matches the accounted Gaussian curve', () => {
    const r = seededRandom('gm-privacy');
    const sigma = 1;
    const sensitivity = 1;
    const n = 200_000;
    for (const epsilon of [0.5, 1.5]) {
      const tau = (epsilon * sigma * sigma) / sensitivity + sensitivity / 2;
      let hits = 0;
      let hitsPrime = 0;
      for (let i = 0; i < n; i++) {
        if (gaussianMechanism([0], { sigma, l2Sensitivity: sensitivity }, r).output[0] > tau) hits++;
        if (gaussianMechanism([sensitivity], { sigma, l2Sensitivity: sensitivity }, r).output[0] > tau) hitsPrime++;
      }
      const accounted = gaussianDelta(sigma, sensitivity, epsilon);
      const { lower, estimate } = deltaCheck(hitsPrime, hits, n, epsilon);
      expect(lower).toBeLessThanOrEqual(accounted);
      // Standard error of the estimate ≈ 0.0015 here; 0.01 is > 6 s.e.
      expect(Math.abs(estimate - accounted)).toBeLessThan(0.01);
    }
  });

  it('ℓ2 semantics: a shift of norm Δ split over two coordinates leaks exactly as in one', () => {
    const r = seededRandom('gm-l2');
    const sigma = 1;
    const epsilon = 1;
    const shift = [Math.SQRT1_2, Math.SQRT1_2]; // ‖shift‖₂ = 1
    const tau = epsilon * sigma * sigma + 0.5; // along the shift direction
    const n = 150_000;
    let hits = 0;
    let hitsPrime = 0;
    const project = (y: Float64Array): number => (y[0] + y[1]) * Math.SQRT1_2;
    for (let i = 0; i < n; i++) {
      if (project(gaussianMechanism([0, 0], { sigma, l2Sensitivity: 1 }, r).output) > tau) hits++;
      if (project(gaussianMechanism(shift, { sigma, l2Sensitivity: 1 }, r).output) > tau) hitsPrime++;
    }
    const { lower, estimate } = deltaCheck(hitsPrime, hits, n, epsilon);
    expect(lower).toBeLessThanOrEqual(gaussianDelta(sigma, 1, epsilon));
    expect(Math.abs(estimate - gaussianDelta(sigma, 1, epsilon))).toBeLessThan(0.012);
  });
});

describe('laplaceMechanism', () => {
  it('charges laplace(b, Δ₁); empirical ε on the tail event equals Δ₁/b', () => {
    const r = seededRandom('lm-privacy');
    const epsilon = 1;
    const scale = laplaceScaleFor(epsilon, 2);
    expect(scale).toBe(2);
    const n = 200_000;
    let hits = 0;
    let hitsPrime = 0;
    // For y ≥ Δ the density ratio is exactly e^{Δ/b}: E = {y ≥ Δ} attains ε.
    for (let i = 0; i < n; i++) {
      if (laplaceMechanism([2], { scale, l1Sensitivity: 2 }, r).output[0] >= 2) hits++;
      if (laplaceMechanism([0], { scale, l1Sensitivity: 2 }, r).output[0] >= 2) hitsPrime++;
    }
    const e = empiricalEpsilon(hits, n, hitsPrime, n);
    expect(e.lower).toBeLessThanOrEqual(epsilon);
    expect(Math.abs(e.estimate - epsilon)).toBeLessThan(0.03);
    expect(laplaceMechanism([0], { scale: 2, l1Sensitivity: 2 }, r).event).toEqual({ kind: 'laplace', scale: 2, sensitivity: 2, neighbouring: 'add-remove' });
  });
});

describe('discreteGaussianMechanism', () => {
  it('keeps integers, charges a discrete-gaussian event, and its empirical δ stays within the charged δ', () => {
    const r = seededRandom('dgm-privacy');
    const sigma = 2;
    const epsilon = 0.5;
    const n = 40_000;
    // Optimal event for an integer shift of 1: the outputs whose privacy loss exceeds ε.
    const tau = epsilon * sigma * sigma + 0.5; // loss(y) = (2y − 1)/(2σ²) > ε ⟺ y > τ
    let hits = 0;
    let hitsPrime = 0;
    for (let i = 0; i < n; i++) {
      const y = discreteGaussianMechanism([0], { sigma, l2Sensitivity: 1 }, r).output[0];
      const yPrime = discreteGaussianMechanism([1], { sigma, l2Sensitivity: 1 }, r).output[0];
      expect(Number.isInteger(y) && Number.isInteger(yPrime)).toBe(true);
      if (y > tau) hits++;
      if (yPrime > tau) hitsPrime++;
    }
    const { event } = discreteGaussianMechanism([3], { sigma, l2Sensitivity: 1 }, r);
    expect(event).toEqual({ kind: 'discrete-gaussian', sigma, sensitivity: 1, neighbouring: 'add-remove' });
    const charged = accountDelta(event, epsilon);
    const exact = discreteGaussianDelta(sigma, 1, epsilon);
    const { lower, estimate } = deltaCheck(hitsPrime, hits, n, epsilon);
    expect(lower).toBeLessThanOrEqual(charged.bounds.upper);
    // The estimate matches the exact discrete curve (s.e. ≈ 0.003 here; 0.015 is 5 s.e.).
    expect(Math.abs(estimate - exact)).toBeLessThan(0.015);
  });

  it('is charged by its exact PLD (an integer shift; RDP’s zCDP bound beside it), which bounds the exact discrete δ(ε) that exceeds the continuous curve', () => {
    for (const [sigma, epsilon] of [[1, 1], [2, 1], [1, 3], [0.5, 5], [4, 0.2]]) {
      const label = `σ=${sigma} ε=${epsilon}`;
      const exact = discreteGaussianDelta(sigma, 1, epsilon);
      expect(exact, label).toBeGreaterThan(gaussianDelta(sigma, 1, epsilon));
      const charged = accountDelta(discreteGaussianMechanism([0], { sigma, l2Sensitivity: 1 }, seededRandom('dgm-event')).event, epsilon);
      expect(charged.accountant, label).toBe('pld');
      expect(charged.bounds.upper, label).toBeGreaterThanOrEqual(exact);
      expect(rdpAccountant.delta(discreteGaussian(sigma, 1), epsilon).upper, label).toBeGreaterThanOrEqual(exact);
      // ε at δ: the RDP ε must exceed the exact discrete ε (found by bisection on the exact δ(ε)).
      const delta = 1e-6;
      let [lo, hi] = [0, 100];
      for (let i = 0; i < 100; i++) [lo, hi] = discreteGaussianDelta(sigma, 1, (lo + hi) / 2) > delta ? [(lo + hi) / 2, hi] : [lo, (lo + hi) / 2];
      expect(accountEpsilon(discreteGaussian(sigma, 1), delta).bounds.upper, label).toBeGreaterThanOrEqual(hi);
    }
    // An ℓ2 sensitivity over several coordinates is not an integer shift: RDP charges it.
    expect(() => pldAccountant.delta(discreteGaussian(1, Math.SQRT2), 1)).toThrow(UnsupportedByPldError);
    expect(accountEpsilon(discreteGaussian(1, Math.SQRT2), 1e-6).accountant).toBe('rdp');
  });
});

describe('discreteLaplaceMechanism', () => {
  it('charges pure(Δ₁/t) and attains exactly that ε on {y ≥ 1}', () => {
    const r = seededRandom('dlm-privacy');
    const scale = 1.25; // ε = 0.8 for Δ₁ = 1
    const n = 60_000;
    let hits = 0;
    let hitsPrime = 0;
    for (let i = 0; i < n; i++) {
      if (discreteLaplaceMechanism([1], { scale, l1Sensitivity: 1 }, r).output[0] >= 1) hits++;
      if (discreteLaplaceMechanism([0], { scale, l1Sensitivity: 1 }, r).output[0] >= 1) hitsPrime++;
    }
    const e = empiricalEpsilon(hits, n, hitsPrime, n);
    expect(e.lower).toBeLessThanOrEqual(0.8);
    expect(Math.abs(e.estimate - 0.8)).toBeLessThan(0.05);
    const { event } = discreteLaplaceMechanism([0], { scale, l1Sensitivity: 1 }, r);
    expect(event).toEqual({ kind: 'pure', epsilon: 0.8, neighbouring: 'add-remove' });
    expect(() => discreteLaplaceMechanism([0.5], { scale, l1Sensitivity: 1 }, r)).toThrow();
  });
});
