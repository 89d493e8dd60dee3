/**
 * Exponential mechanism (Gumbel-max), report-noisy-max (Gaussian and exponential noise) and
 * permute-and-flip: exact output distributions (chi-square at p = 0.001 on fixed seeds),
 * events, and empirical privacy on neighbouring utility vectors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exponentialMechanism, exponentialMechanismProbabilities } from '../../../../core/mechanisms/exponentialMechanism';
import { permuteAndFlip } from '../../../../core/mechanisms/permuteAndFlip';
import { reportNoisyMaxExponential, reportNoisyMaxGaussian } from '../../../../core/mechanisms/reportNoisyMax';
import { seededRandom } from '../../../../core/random/seededRandom';
import { chiSquarePasses, empiricalEpsilon, normalCdf, wilson } from '../random/stats';

function histogram(draw: () => number, bins: number, n: number): number[] {
  const counts = new Array(bins).fill(0);
  for (let i = 0; i < n; i++) counts[draw()]++;
  return counts;
}

/** Exact permute-and-flip distribution by enumerating visiting orders (small n only). */
function permuteAndFlipExact(scores: number[], rate: number): number[] {
  const max = Math.max(...scores);
  const accept = scores.map((s) => Math.exp(rate * (s - max)));
  const p = new Array(scores.length).fill(0);
  const visit = (remaining: number[], reach: number): void => {
    for (const r of remaining) {
      const pr = reach / remaining.length;
      p[r] += pr * accept[r];
      if (accept[r] < 1) visit(remaining.filter((x) => x !== r), pr * (1 - accept[r]));
    }
  };
  visit(scores.map((_, i) => i), 1);
  return p;
}

describe('exponentialMechanism (Gumbel-max)', () => {
  const utilities = [0, 1, 2, 3, 5, 5];

  it('P[i] ∝ exp(ε·uᵢ/(2Δ)) (chi-square, 60,000 draws)', () => {
    const params = { epsilon: 1.2, sensitivity: 2 };
    const p = exponentialMechanismProbabilities(utilities, params);
    const z = utilities.reduce((a, u) => a + Math.exp((1.2 * u) / 4), 0);
    utilities.forEach((u, i) => expect(p[i]).toBeCloseTo(Math.exp((1.2 * u) / 4) / z, 12));
    const r = seededRandom('em-fit');
    const counts = histogram(() => exponentialMechanism(utilities, params, r).output, utilities.length, 60_000);
    expect(chiSquarePasses(counts, p).pass).toBe(true);
  });

  it('monotone utilities use exp(ε·uᵢ/Δ)', () => {
    const params = { epsilon: 0.7, sensitivity: 1, monotone: true };
    const p = exponentialMechanismProbabilities(utilities, params);
    expect(p[5] / p[0]).toBeCloseTo(Math.exp(0.7 * 5), 9);
    const r = seededRandom('em-monotone');
    const counts = histogram(() => exponentialMechanism(utilities, params, r).output, utilities.length, 40_000);
    expect(chiSquarePasses(counts, p).pass).toBe(true);
  });

  it('charges pure(ε) and validates its inputs', () => {
    const r = seededRandom(1);
    expect(exponentialMechanism([1, 2], { epsilon: 0.3, sensitivity: 1 }, r).event).toEqual({ kind: 'pure', epsilon: 0.3, neighbouring: 'add-remove' });
    expect(() => exponentialMechanism([], { epsilon: 1, sensitivity: 1 }, r)).toThrow();
    expect(() => exponentialMechanism([1], { epsilon: 0, sensitivity: 1 }, r)).toThrow();
    expect(() => exponentialMechanism([Infinity], { epsilon: 1, sensitivity: 1 }, r)).toThrow();
  });

  it('empirical privacy on adversarial neighbours stays within ε (Wilson z = 4)', () => {
    // u and u′ differ by ≤ Δ = 1 in every coordinate, in opposite directions: the worst case.
    const u = [1, 0, 0, 0];
    const uPrime = [0, 1, 1, 1];
    const epsilon = 2;
    const params = { epsilon, sensitivity: 1 };
    const r = seededRandom('em-privacy');
    const n = 100_000;
    let hits = 0;
    let hitsPrime = 0;
    for (let i = 0; i < n; i++) {
      if (exponentialMechanism(u, params, r).output === 0) hits++;
      if (exponentialMechanism(uPrime, params, r).output === 0) hitsPrime++;
    }
    const exact = Math.log(exponentialMechanismProbabilities(u, params)[0] / exponentialMechanismProbabilities(uPrime, params)[0]);
    const e = empiricalEpsilon(hits, n, hitsPrime, n);
    expect(exact).toBeLessThanOrEqual(epsilon);
    expect(e.lower).toBeLessThanOrEqual(epsilon);
    expect(Math.abs(e.estimate - exact)).toBeLessThan(0.05);
  });

  it('always returns a candidate index (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 30 }), fc.integer(), (us, seed) => {
        const i = exponentialMechanism(us, { epsilon: 1, sensitivity: 1 }, seededRandom(seed)).output;
        return Number.isInteger(i) && i >= 0 && i < us.length;
      }),
      { numRuns: 100 },
    );
  });
});

describe('report-noisy-max with exponential noise ≡ permute-and-flip', () => {
  const scores = [0, 1, 1.5, 4];
  const epsilon = 1;
  const rate = epsilon / 2; // Δ = 1, not monotone
  const exact = permuteAndFlipExact(scores, rate);

  it('permute-and-flip matches its exact distribution (chi-square, 60,000 draws)', () => {
    expect(exact.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const r = seededRandom('pf-fit');
    const counts = histogram(() => permuteAndFlip(scores, { epsilon, sensitivity: 1 }, r).output, scores.length, 60_000);
    expect(chiSquarePasses(counts, exact).pass).toBe(true);
  });

  it('report-noisy-max with Exp(2Δ/ε) noise has the same distribution (Ding et al. 2021)', () => {
    const r = seededRandom('rnm-exp-fit');
    const counts = histogram(() => reportNoisyMaxExponential(scores, { epsilon, sensitivity: 1 }, r).output, scores.length, 60_000);
    expect(chiSquarePasses(counts, exact).pass).toBe(true);
  });

  it('monotone variants use rate ε/Δ', () => {
    const exactMonotone = permuteAndFlipExact(scores, epsilon);
    const r = seededRandom('pf-monotone');
    const a = histogram(() => permuteAndFlip(scores, { epsilon, sensitivity: 1, monotone: true }, r).output, 4, 40_000);
    const b = histogram(() => reportNoisyMaxExponential(scores, { epsilon, sensitivity: 1, monotone: true }, r).output, 4, 40_000);
    expect(chiSquarePasses(a, exactMonotone).pass).toBe(true);
    expect(chiSquarePasses(b, exactMonotone).pass).toBe(true);
  });

  it('both charge pure(ε); empirical privacy on adversarial neighbours stays within ε', () => {
    const r = seededRandom('pf-privacy');
    expect(permuteAndFlip([1], { epsilon: 0.5, sensitivity: 1 }, r).event).toEqual({ kind: 'pure', epsilon: 0.5, neighbouring: 'add-remove' });
    expect(reportNoisyMaxExponential([1], { epsilon: 0.5, sensitivity: 1 }, r).event).toEqual({ kind: 'pure', epsilon: 0.5, neighbouring: 'add-remove' });
    const u = [1, 0, 0];
    const uPrime = [0, 1, 1];
    const n = 80_000;
    let hits = 0;
    let hitsPrime = 0;
    for (let i = 0; i < n; i++) {
      if (permuteAndFlip(u, { epsilon: 1.5, sensitivity: 1 }, r).output === 0) hits++;
      if (permuteAndFlip(uPrime, { epsilon: 1.5, sensitivity: 1 }, r).output === 0) hitsPrime++;
    }
    expect(empiricalEpsilon(hits, n, hitsPrime, n).lower).toBeLessThanOrEqual(1.5);
  });
});

describe('report-noisy-max with Gaussian noise', () => {
  it('P[argmax = 1] = Φ((s₁ − s₀)/(σ√2)) for two candidates, and the event is gaussian(σ, Δ₂)', () => {
    const r = seededRandom('rnm-gauss');
    const sigma = 1.5;
    const n = 60_000;
    let ones = 0;
    for (let i = 0; i < n; i++) if (reportNoisyMaxGaussian([0, 1], { sigma, l2Sensitivity: Math.SQRT2 }, r).output === 1) ones++;
    const p = normalCdf(1 / (sigma * Math.SQRT2));
    const ci = wilson(ones, n);
    expect(ci.lower).toBeLessThanOrEqual(p);
    expect(ci.upper).toBeGreaterThanOrEqual(p);
    expect(reportNoisyMaxGaussian([0], { sigma, l2Sensitivity: Math.SQRT2 }, r).event).toEqual({
      kind: 'gaussian', sigma, sensitivity: Math.SQRT2, neighbouring: 'add-remove',
    });
  });

  it('empirical privacy: a vote moving between two candidates (ℓ2 √2) stays within the Gaussian δ(ε)', () => {
    const r = seededRandom('rnm-gauss-privacy');
    const sigma = 1;
    const epsilon = 1;
    const delta = (s: number, d: number, e: number): number => normalCdf(d / (2 * s) - (e * s) / d) - Math.exp(e) * normalCdf(-d / (2 * s) - (e * s) / d);
    const n = 100_000;
    let hits = 0;
    let hitsPrime = 0;
    for (let i = 0; i < n; i++) {
      if (reportNoisyMaxGaussian([1, 0], { sigma, l2Sensitivity: Math.SQRT2 }, r).output === 0) hits++;
      if (reportNoisyMaxGaussian([0, 1], { sigma, l2Sensitivity: Math.SQRT2 }, r).output === 0) hitsPrime++;
    }
    const a = wilson(hits, n);
    const b = wilson(hitsPrime, n);
    expect(a.lower - Math.exp(epsilon) * b.upper).toBeLessThanOrEqual(delta(sigma, Math.SQRT2, epsilon));
  });
});
