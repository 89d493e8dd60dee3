/**
 * Poisson-subsampled Laplace, pure ε-DP and (ε, δ)-DP in the PLD accountant, in both
 * neighbouring directions (Zhu, Dong & Wang 2022: remove ((1−q)Q + qP, Q), add (Q, (1−q)Q + qP)).
 *
 * References independent of the accountant:
 *  - ε-DP and (ε, δ)-DP have finite dominating pairs (randomised response, Kairouz–Oh–Viswanath
 *    with its δ atoms), so the exact δ(ε) of a T-fold composition is a sum over the outcome
 *    counts (a sufficient statistic), and ε(δ) follows by bisection;
 *  - closed forms: subsampled ε₀-DP has ε(δ) → log(1 + q(e^{ε₀} − 1)) as δ → 0; subsampled
 *    (ε₀, δ₀)-DP has δ = q·δ₀ at that amplified ε (remove direction);
 *  - Laplace: Simpson's rule over the output (kinks of the densities on grid points).
 * The accountant's certified bounds must contain the exact value (1e-9 relative slack for the
 * references' own float rounding) and its estimate must be within its refinement target.
 */
import { describe, expect, it } from 'vitest';
import { approxDp, composed, laplace, poissonSampled, pureDp, type PrivacyEvent } from '../../../../core/accounting/events';
import { createPldAccountant, pldAccountant } from '../../../../core/accounting/pld';
import { laplaceLoss, randomizedResponseLoss } from '../../../../core/accounting/pld/lossDistribution';
import { subsampledAdd, subsampledRemove } from '../../../../core/accounting/pld/subsampling';

type Pair = { p: number[]; q: number[] };

/** Randomised response at ε₀ with δ₀ atoms: outcomes [⊤ (only under P), 0, 1, ⊥ (only under Q)]. */
function kov(epsilon0: number, delta0: number): Pair {
  const high = (1 - delta0) / (1 + Math.exp(-epsilon0));
  const low = (1 - delta0) / (1 + Math.exp(epsilon0));
  return { p: [delta0, high, low, 0], q: [0, low, high, delta0] };
}

/** Poisson(q) subsampling: remove (M, Q) and add (Q, M) with M = (1−q)Q + qP. */
function subsampled(pair: Pair, rate: number): { remove: Pair; add: Pair } {
  const mix = pair.q.map((qo, o) => (1 - rate) * qo + rate * pair.p[o]);
  return { remove: { p: mix, q: pair.q }, add: { p: pair.q, q: mix } };
}

/** Exact δ(ε) of the T-fold composition of a finite pair: Σ over outcome counts of (P − e^ε·Q)₊. */
function exactDelta({ p, q }: Pair, count: number, epsilon: number): number {
  const logFactorial = [0];
  for (let i = 1; i <= count; i++) logFactorial.push(logFactorial[i - 1] + Math.log(i));
  const logOf = (x: number, c: number): number => (c === 0 ? 0 : x === 0 ? -Infinity : c * Math.log(x));
  let delta = 0;
  const visit = (o: number, left: number, logCoef: number, logP: number, logQ: number): void => {
    if (o === p.length - 1) {
      const lp = logCoef - logFactorial[left] + logP + logOf(p[o], left);
      const lq = logCoef - logFactorial[left] + logQ + logOf(q[o], left);
      delta += Math.max(0, Math.exp(lp) - Math.exp(epsilon + lq));
      return;
    }
    for (let c = 0; c <= left; c++) visit(o + 1, left - c, logCoef - logFactorial[c], logP + logOf(p[o], c), logQ + logOf(q[o], c));
  };
  visit(0, count, logFactorial[count], 0, 0);
  return delta;
}

/** The worse direction's exact δ(ε), and ε(δ) by bisection on it. */
function exactBoth(pair: Pair, rate: number, count: number) {
  const { remove, add } = subsampled(pair, rate);
  const delta = (epsilon: number): number => Math.max(exactDelta(remove, count, epsilon), exactDelta(add, count, epsilon));
  const epsilon = (target: number): number => {
    let [lo, hi] = [0, 50];
    for (let i = 0; i < 100; i++) [lo, hi] = delta((lo + hi) / 2) > target ? [(lo + hi) / 2, hi] : [lo, (lo + hi) / 2];
    return hi;
  };
  return { delta, epsilon };
}

function expectInside(b: { lower: number; estimate: number; upper: number }, exact: number, label: string, absolute = 1e-14): void {
  expect(b.lower, label).toBeLessThanOrEqual(exact * (1 + 1e-9) + absolute);
  expect(b.upper, label).toBeGreaterThanOrEqual(exact * (1 - 1e-9) - absolute);
}

/**
 * δ queried exactly at an atom of a one-step PLD converges only linearly in the grid step (the
 * atom is spread over a cell), so these queries use a capped grid: its bounds are as certified.
 */
const coarse = createPldAccountant({ maxSize: 2 ** 16 });

const cases: [string, (e0: number, d0: number) => PrivacyEvent][] = [
  ['ε-DP', (e0) => pureDp(e0)],
  ['(ε, δ)-DP', (e0, d0) => approxDp(e0, d0)],
];

describe('PLD: Poisson-subsampled ε-DP and (ε, δ)-DP against exact finite compositions', () => {
  const settings: [number, number, number, number][] = [
    // q, ε₀, δ₀, T
    [0.1, 1, 1e-6, 1],
    [0.05, 2, 1e-7, 8],
    [0.3, 0.5, 1e-6, 20],
    [0.01, 4, 1e-8, 12],
  ];

  for (const [name, make] of cases) {
    it(`${name}: δ(ε) and ε(δ) bounds contain the exact values (both directions)`, () => {
      for (const [q, e0, d0, T] of settings) {
        const pair = kov(e0, name === 'ε-DP' ? 0 : d0);
        const exact = exactBoth(pair, q, T);
        const event = composed(poissonSampled(q, make(e0, d0)), T);
        for (const eps of [0, 0.1, 0.5, 1.5]) {
          const label = `q=${q} ε₀=${e0} T=${T} ε=${eps}`;
          const b = pldAccountant.delta(event, eps);
          expectInside(b, exact.delta(eps), label);
          expect(Math.abs(b.estimate - exact.delta(eps)), label).toBeLessThanOrEqual(2e-3 * b.upper + 1e-10);
        }
        for (const delta of [1e-3, 1e-5]) {
          if (exact.delta(0) <= delta) continue;
          const label = `q=${q} ε₀=${e0} T=${T} δ=${delta}`;
          const b = pldAccountant.epsilon(event, delta);
          expectInside(b, exact.epsilon(delta), label, 1e-9);
          expect(b.upper - b.lower, label).toBeLessThanOrEqual(2e-3 * b.upper + 2e-6);
        }
      }
    });
  }

  it('ε-DP: ε(δ) → log(1 + q(e^ε₀ − 1)) as δ → 0 (Balle, Barthe & Gaboardi 2018)', () => {
    for (const [q, e0] of [[0.1, 1], [0.01, 3], [0.5, 0.2]]) {
      const amplified = Math.log1p(q * Math.expm1(e0));
      // One step: δ(ε) = M(top)·(1 − e^{ε − top}) just below the top loss, so ε(δ) = top + log(1 − δ/M(top)).
      const top = (1 - q) / (1 + Math.exp(e0)) + q / (1 + Math.exp(-e0));
      const b = pldAccountant.epsilon(poissonSampled(q, pureDp(e0)), 1e-12);
      expectInside(b, amplified + Math.log1p(-1e-12 / top), `q=${q} ε₀=${e0}`, 1e-12);
      expect(b.upper).toBeLessThanOrEqual(amplified * (1 + 2e-3) + 1e-6);
      // δ(amplified) = 0; the pessimistic grid spreads the top atom over one cell above it.
      expect(coarse.delta(poissonSampled(q, pureDp(e0)), amplified).lower).toBe(0);
    }
  });

  it('(ε, δ)-DP: δ = q·δ₀ at the amplified ε, and the loss distributions carry q·δ₀ at infinity (remove) and none (add)', () => {
    const [q, e0, d0] = [0.1, 1, 1e-5];
    const amplified = Math.log1p(q * Math.expm1(e0));
    const { remove, add } = subsampled(kov(e0, d0), q);
    expect(exactDelta(remove, 1, amplified)).toBeCloseTo(q * d0, 18);
    expect(exactDelta(add, 1, amplified)).toBe(0);
    expectInside(coarse.delta(poissonSampled(q, approxDp(e0, d0)), amplified), q * d0, 'δ at the amplified ε', 1e-13);
    expect(pldAccountant.epsilon(poissonSampled(q, approxDp(e0, d0)), q * d0 * 0.999).upper).toBe(Infinity);
    expect(subsampledRemove(q, randomizedResponseLoss(e0, d0)).infinityMass).toBeCloseTo(q * d0, 18);
    expect(subsampledAdd(q, randomizedResponseLoss(e0, d0)).infinityMass).toBe(0);
  });

  it('each direction’s loss distribution matches its exact one-step δ(ε)', () => {
    for (const [q, e0, d0] of [[0.2, 1, 1e-4], [0.05, 3, 0]]) {
      const base = randomizedResponseLoss(e0, d0);
      const { remove, add } = subsampled(kov(e0, d0), q);
      for (const eps of [-0.5, 0, 0.05, 0.3, 1]) {
        const rem = subsampledRemove(q, base);
        const ad = subsampledAdd(q, base);
        expect(rem.at(eps).finiteDelta + rem.infinityMass, `remove ε=${eps}`).toBeCloseTo(exactDelta(remove, 1, eps), 14);
        expect(ad.at(eps).finiteDelta + ad.infinityMass, `add ε=${eps}`).toBeCloseTo(exactDelta(add, 1, eps), 14);
      }
    }
  });
});

describe('PLD: Poisson-subsampled Laplace against numerical integration', () => {
  const laplaceDensity = (mean: number, b: number) => (x: number) => Math.exp(-Math.abs(x - mean) / b) / (2 * b);
  /** δ(ε) = ∫(p − e^ε·q)₊ by Simpson's rule on [−40b, 40b + 1] with the kinks at 0 and 1 on the grid. */
  function integrated(p: (x: number) => number, q: (x: number) => number, epsilon: number, b: number): number {
    const h = 1 / 2000;
    const lo = -Math.ceil(40 * b);
    const steps = 2 * Math.ceil((2 * -lo + 1) / h / 2);
    let sum = 0;
    for (let i = 0; i <= steps; i++) {
      const v = Math.max(0, p(lo + i * h) - Math.exp(epsilon) * q(lo + i * h));
      sum += v * (i === 0 || i === steps ? 1 : i % 2 ? 4 : 2);
    }
    return (sum * h) / 3;
  }

  it('each direction, and the accountant (the worse of the two), contain the integrated δ(ε)', () => {
    for (const [q, b] of [[0.1, 1], [0.3, 0.5], [0.02, 0.25]]) {
      const p = laplaceDensity(1, b);
      const q0 = laplaceDensity(0, b);
      const mix = (x: number) => (1 - q) * q0(x) + q * p(x);
      const remove = subsampledRemove(q, laplaceLoss(1 / b));
      const add = subsampledAdd(q, laplaceLoss(1 / b));
      for (const eps of [0, 0.02, 0.1, 0.3, 1]) {
        const label = `q=${q} b=${b} ε=${eps}`;
        const [rem, ad] = [integrated(mix, q0, eps, b), integrated(q0, mix, eps, b)];
        // Simpson's error at the kink of (p − e^ε q)₊ is O(h²) ≈ 1e-7 of a unit-scale integrand.
        expect(Math.abs(remove.at(eps).finiteDelta - rem), `remove ${label}`).toBeLessThan(1e-7);
        expect(Math.abs(add.at(eps).finiteDelta - ad), `add ${label}`).toBeLessThan(1e-7);
        const bounds = pldAccountant.delta(poissonSampled(q, laplace(b)), eps);
        expectInside(bounds, Math.max(rem, ad), label, 2e-7);
      }
    }
  });

  it('T steps cost more than one and at most T times one (basic composition)', () => {
    const one = pldAccountant.epsilon(poissonSampled(0.1, laplace(1)), 1e-6);
    const ten = pldAccountant.epsilon(composed(poissonSampled(0.1, laplace(1)), 10), 1e-6);
    expect(ten.lower).toBeGreaterThan(one.upper);
    expect(ten.upper).toBeLessThanOrEqual(10 * Math.log1p(0.1 * Math.expm1(1)));
  });
});
