/**
 * Empirical privacy: run each mechanism family n times on neighbouring inputs D, D′ (fixed
 * seeds), and check that no output set S shows more privacy loss than the accountant charges.
 *
 *  - (ε, δ) form, for the Gaussian families: δ̂(ε) = P_D′(S) − e^ε·P_D(S) (and D, D′ swapped)
 *    over threshold sets S = {y > τ} / {y ≤ τ}, which contain the optimal set because the
 *    privacy loss is monotone in y. Claim: δ̂ ≤ accounted δ(ε).
 *  - pure form, for ε-DP families: ε̂ = log(P_D′(S)/P_D(S)) over threshold sets (Laplace) or
 *    single outcomes (selection mechanisms). Claim: ε̂ ≤ ε.
 *
 * Statistical slack: every probability is replaced by its Wilson bound at z = 5 (lower for the
 * numerator, upper for the subtracted / denominator term), so a correct mechanism fails a
 * single comparison with probability ≤ 2·P(Z > 5) ≈ 5.7e-7. A test makes at most ~500
 * comparisons (41 thresholds × 2 set shapes × 2 directions × 3 ε), so even a fresh seed would
 * false-alarm with probability < 3e-4 (Bonferroni); with the fixed seeds the outcome is
 * deterministic. The Poisson-subsampled families are checked against the PLD bound the
 * accountant actually charges for their event. Each family is also run with HALF its declared noise (twice its ε for the
 * selection mechanisms) and the same estimator must flag it: the tests can fail.
 */
import { describe, expect, it } from 'vitest';
import { accountDelta } from '../../../../core/accounting';
import { analyticGaussianDelta } from '../../../../core/accounting/analyticGaussian';
import { gaussian, laplace, poissonSampled, pureDp, type PrivacyEvent } from '../../../../core/accounting/events';
import { exponentialMechanism } from '../../../../core/mechanisms/exponentialMechanism';
import { gaussianMechanism } from '../../../../core/mechanisms/gaussianMechanism';
import { laplaceMechanism } from '../../../../core/mechanisms/laplaceMechanism';
import { permuteAndFlip } from '../../../../core/mechanisms/permuteAndFlip';
import { poissonSample } from '../../../../core/mechanisms/poissonSampling';
import { reportNoisyMaxExponential } from '../../../../core/mechanisms/reportNoisyMax';
import type { RandomSource } from '../../../../core/random/randomSource';
import { seededRandom } from '../../../../core/random/seededRandom';
import { wilson } from '../random/stats';

const Z = 5;

/** How many of the n runs on D and on D′ fell into one output set. */
interface SetHits {
  d: number;
  dPrime: number;
}

/** Hits of the sets {y > τ} and {y ≤ τ} for each threshold τ. */
function thresholdSets(d: Float64Array, dPrime: Float64Array, thresholds: number[]): SetHits[] {
  const above = (xs: Float64Array, tau: number): number => xs.reduce((count, x) => count + (x > tau ? 1 : 0), 0);
  return thresholds.flatMap((tau) => {
    const hits = { d: above(d, tau), dPrime: above(dPrime, tau) };
    return [hits, { d: d.length - hits.d, dPrime: dPrime.length - hits.dPrime }];
  });
}

/** Hits of each single outcome 0..k−1 of a selection mechanism. */
function outcomeSets(d: Int32Array, dPrime: Int32Array, k: number): SetHits[] {
  const sets = Array.from({ length: k }, () => ({ d: 0, dPrime: 0 }));
  d.forEach((o) => sets[o].d++);
  dPrime.forEach((o) => sets[o].dPrime++);
  return sets;
}

/** Both directions of every set: [numerator hits, other hits]. */
const directions = (sets: SetHits[]): [number, number][] => sets.flatMap((s): [number, number][] => [[s.dPrime, s.d], [s.d, s.dPrime]]);

/** Largest lower confidence bound on P(S) − e^ε·P′(S) over the sets and directions. */
function deltaLowerBound(sets: SetHits[], n: number, epsilon: number): number {
  return Math.max(...directions(sets).map(([a, b]) => wilson(a, n, Z).lower - Math.exp(epsilon) * wilson(b, n, Z).upper));
}

/** Largest lower confidence bound on log(P(S)/P′(S)) over the sets and directions. */
function epsilonLowerBound(sets: SetHits[], n: number): number {
  return Math.max(...directions(sets).map(([a, b]) => Math.log(wilson(a, n, Z).lower / wilson(b, n, Z).upper)));
}

const grid = (lo: number, hi: number, count: number): number[] => Array.from({ length: count }, (_, i) => lo + ((hi - lo) * i) / (count - 1));

describe('empirical privacy: Gaussian mechanism', () => {
  const n = 100_000;
  const sensitivity = 1;
  const thresholds = grid(-2, 3, 41);
  /** Outputs on f(D) = 0 and f(D′) = Δ, noise `sigma`. */
  const run = (sigma: number, seed: string): SetHits[] => {
    const r = seededRandom(seed);
    const d = gaussianMechanism(new Float64Array(n), { sigma, l2Sensitivity: sensitivity }, r).output;
    const dPrime = gaussianMechanism(new Float64Array(n).fill(sensitivity), { sigma, l2Sensitivity: sensitivity }, r).output;
    return thresholdSets(d, dPrime, thresholds);
  };

  it('δ̂(ε) stays within the exact accounted δ(ε) (Balle–Wang), and is close to it', () => {
    const sets = run(1, 'empirical-gaussian');
    for (const epsilon of [0.5, 1, 2]) {
      const accounted = analyticGaussianDelta(epsilon, 1, sensitivity);
      expect(deltaLowerBound(sets, n, epsilon)).toBeLessThanOrEqual(accounted);
      // The point estimate at the best threshold is tight (its s.e. is ≈ 0.002 here).
      const estimate = Math.max(...directions(sets).map(([a, b]) => a / n - (Math.exp(epsilon) * b) / n));
      expect(Math.abs(estimate - accounted)).toBeLessThan(0.01);
    }
  });

  it('flags a Gaussian run with half the declared noise', () => {
    const sets = run(0.5, 'empirical-gaussian-half');
    expect(deltaLowerBound(sets, n, 1)).toBeGreaterThan(analyticGaussianDelta(1, 1, sensitivity));
  });
});

/**
 * Poisson-subsampled releases (add/remove one unit): D holds 50 units of value 0, D′ adds one
 * unit of value 1. Each run Poisson(q)-samples the units afresh, and a mechanism sees the sum of
 * the sampled values. Claims are checked against what the accountant charges for the event
 * (the facade: PLD, both neighbouring directions).
 */
const q = 0.3;
const UNITS = 50;

/** The sampled sum of each of n runs, on D (false) or D′ (true). */
function sampledSums(n: number, withExtra: boolean, r: RandomSource): Float64Array {
  const totals = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const sample = poissonSample(withExtra ? UNITS + 1 : UNITS, q, r);
    totals[i] = withExtra && sample[sample.length - 1] === UNITS ? 1 : 0;
  }
  return totals;
}

/** δ(ε) charged for the event, checking that the facade answers with PLD. */
function chargedDelta(event: PrivacyEvent, epsilon: number): number {
  const charged = accountDelta(event, epsilon, { crossCheck: false });
  expect(charged.accountant).toBe('pld');
  return charged.bounds.upper;
}

describe('empirical privacy: Poisson-subsampled additive noise (δ form)', () => {
  const n = 100_000;
  const thresholds = grid(-3, 4, 41);
  type Noise = (totals: Float64Array, r: RandomSource) => Float64Array;
  const families: [string, PrivacyEvent, Noise, Noise, number[]][] = [
    // name, event charged, the noise it declares, half that noise, ε grid
    ['Gaussian σ = 1', poissonSampled(q, gaussian(1)),
      (t, r) => gaussianMechanism(t, { sigma: 1, l2Sensitivity: 1 }, r).output,
      (t, r) => gaussianMechanism(t, { sigma: 0.5, l2Sensitivity: 1 }, r).output, [0.25, 0.5, 1]],
    ['Laplace b = 1', poissonSampled(q, laplace(1)),
      (t, r) => laplaceMechanism(t, { scale: 1, l1Sensitivity: 1 }, r).output,
      (t, r) => laplaceMechanism(t, { scale: 0.5, l1Sensitivity: 1 }, r).output, [0.1, 0.25, 0.5]],
  ];
  const run = (noise: Noise, seed: string): SetHits[] => {
    const r = seededRandom(seed);
    return thresholdSets(noise(sampledSums(n, false, r), r), noise(sampledSums(n, true, r), r), thresholds);
  };

  for (const [name, event, noise, half, epsilons] of families) {
    it(`${name}: δ̂(ε) stays within the PLD-charged δ(ε); half the noise is flagged`, () => {
      const sets = run(noise, `empirical-sampled-${name}`);
      for (const epsilon of epsilons) expect(deltaLowerBound(sets, n, epsilon), `ε=${epsilon}`).toBeLessThanOrEqual(chargedDelta(event, epsilon));
      // With half the noise the true δ(ε₁) is 2–3× the charged one (Gaussian: 0.10 vs 0.030 at ε = 0.5; Laplace: 0.15 vs 0.046 at 0.25).
      expect(deltaLowerBound(run(half, `empirical-sampled-${name}-half`), n, epsilons[1])).toBeGreaterThan(chargedDelta(event, epsilons[1]));
    });
  }
});

describe('empirical privacy: Poisson-subsampled ε-DP selection', () => {
  const n = 60_000;
  const k = 20;
  const epsilon0 = 1;
  const event = poissonSampled(q, pureDp(epsilon0));
  // Exponential mechanism over k candidates; candidate 0's utility is the sampled sum (monotone, Δ = 1).
  const run = (epsilon: number, seed: string): SetHits[] => {
    const r = seededRandom(seed);
    const select = (totals: Float64Array): Int32Array =>
      Int32Array.from(totals, (t) => exponentialMechanism(Float64Array.from({ length: k }, (_, i) => (i === 0 ? t : 0)), { epsilon, sensitivity: 1, monotone: true }, r).output);
    return outcomeSets(select(sampledSums(n, false, r)), select(sampledSums(n, true, r)), k);
  };

  it('ε̂ stays within the amplified ε log(1 + q(e^ε − 1)), δ̂(ε) within the PLD-charged δ(ε); 2ε is flagged', () => {
    const amplified = Math.log1p(q * Math.expm1(epsilon0)); // 0.416; the true worst ratio here is 0.372
    const sets = run(epsilon0, 'empirical-sampled-em');
    expect(epsilonLowerBound(sets, n)).toBeLessThanOrEqual(amplified);
    for (const epsilon of [0, 0.1, 0.2]) expect(deltaLowerBound(sets, n, epsilon), `ε=${epsilon}`).toBeLessThanOrEqual(chargedDelta(event, epsilon));
    // Declared ε₀ = 1, run at 2: the worst ratio is log(0.7 + 0.3·5.6) = 0.87.
    expect(epsilonLowerBound(run(2 * epsilon0, 'empirical-sampled-em-half'), n)).toBeGreaterThan(amplified);
  });
});

describe('empirical privacy: Laplace mechanism (pure ε = Δ/b)', () => {
  const n = 100_000;
  const thresholds = grid(-3, 4, 41);
  const run = (scale: number, seed: string): SetHits[] => {
    const r = seededRandom(seed);
    const d = laplaceMechanism(new Float64Array(n), { scale, l1Sensitivity: 1 }, r).output;
    const dPrime = laplaceMechanism(new Float64Array(n).fill(1), { scale, l1Sensitivity: 1 }, r).output;
    return thresholdSets(d, dPrime, thresholds);
  };

  it('ε̂ over threshold sets stays within ε = 1', () => {
    expect(epsilonLowerBound(run(1, 'empirical-laplace'), n)).toBeLessThanOrEqual(1);
  });

  it('flags a run with half the declared noise', () => {
    expect(epsilonLowerBound(run(0.5, 'empirical-laplace-half'), n)).toBeGreaterThan(1);
  });
});

describe('empirical privacy: selection mechanisms (pure ε)', () => {
  const n = 60_000;
  const k = 20;
  // Worst case for ℓ∞ sensitivity 1: on D′ candidate 0 gains 1 and every other loses 1, so
  // P_D′(0)/P_D(0) → e^ε as k grows (EM: 0.92ε at k = 20; permute-and-flip: ≈ ε).
  const utilities = new Float64Array(k);
  const utilitiesPrime = Float64Array.from({ length: k }, (_, i) => (i === 0 ? 1 : -1));
  type Select = (scores: Float64Array, epsilon: number, r: ReturnType<typeof seededRandom>) => number;
  const run = (select: Select, epsilon: number, seed: string): SetHits[] => {
    const r = seededRandom(seed);
    const d = Int32Array.from({ length: n }, () => select(utilities, epsilon, r));
    const dPrime = Int32Array.from({ length: n }, () => select(utilitiesPrime, epsilon, r));
    return outcomeSets(d, dPrime, k);
  };
  const families: [string, Select][] = [
    ['exponential mechanism (Gumbel-max)', (u, epsilon, r) => exponentialMechanism(u, { epsilon, sensitivity: 1 }, r).output],
    ['report-noisy-max, exponential noise', (u, epsilon, r) => reportNoisyMaxExponential(u, { epsilon, sensitivity: 1 }, r).output],
    ['permute-and-flip', (u, epsilon, r) => permuteAndFlip(u, { epsilon, sensitivity: 1 }, r).output],
  ];

  for (const [name, select] of families) {
    it(`${name}: ε̂ stays within ε = 1, and a run with half the noise (2ε) is flagged`, () => {
      expect(epsilonLowerBound(run(select, 1, `empirical-${name}`), n)).toBeLessThanOrEqual(1);
      expect(epsilonLowerBound(run(select, 2, `empirical-${name}-half`), n)).toBeGreaterThan(1);
    });
  }
});
