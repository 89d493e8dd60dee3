/**
 * Events made only of (ε₀, δᵢ)-DP / ε₀-DP steps sharing one ε₀ are priced in closed form by the
 * PLD accountant (optimal composition theorem, pld/optimalComposition.ts). Checked against:
 *  - mpmath at 50 digits on the binomial sum (values below; tolerance: the double nearest them);
 *  - the grid's certified bounds for the same loss (the event wrapped in a Poisson sampler at
 *    q = 1, which the closed form does not take and the grid composes as the same pairs), up to
 *    1e-13 relative: the grid's bounds hold up to its float64 rounding only (its δ bounds for
 *    (1, 1e-8) × 30 at ε = 10 end 2e-15 below the exact 0.70569839462122455, which the closed
 *    form brackets);
 *  - the grid's answers for every other event, unmoved to the last bit (values from main).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approxDp, composed, gaussian, laplace, poissonSampled, pureDp, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { accountEpsilon } from '../../../../core/accounting';
import { createPldAccountant, pldAccountant } from '../../../../core/accounting/pld';
import { coversRecomputed } from '../../../../core/accounting/recordedBound';
import { MAX_CLOSED_FORM_STEPS, optimalComposition, sharedEpsilonSteps } from '../../../../core/accounting/pld/optimalComposition';

const steps = (epsilon0: number, delta0: number, k: number): PrivacyEvent => {
  const one = delta0 > 0 ? approxDp(epsilon0, delta0) : pureDp(epsilon0);
  return k === 1 ? one : composed(one, k);
};
/** The closed form itself. */
const closedForm = (event: PrivacyEvent) => optimalComposition(sharedEpsilonSteps(event)!);
/** The same loss through the grid: Poisson sampling at q = 1 samples everyone. */
const onGrid = (event: PrivacyEvent): PrivacyEvent => poissonSampled(1, event);

/** The double nearest an exact value lies within half an ulp of it. */
const expectBrackets = (b: { lower: number; upper: number }, exact: number) => {
  expect(b.lower).toBeLessThanOrEqual(exact * (1 + 2 ** -53));
  expect(b.upper).toBeGreaterThanOrEqual(exact * (1 - 2 ** -53));
};

/* eslint-disable no-loss-of-precision -- mpmath's digits as printed; each is compared as its nearest double */
describe('closed form: exact values (mpmath, 50 digits, on the binomial sum)', () => {
  // [ε₀, δ₀, k, δ, exact ε]: python3 + mpmath 1.3.0, δ(ε) = 1 − (1−δ₀)^k + (1−δ₀)^k·Σ_{ε₀(2j−k)>ε} C(k,j)p^j(1−p)^{k−j}(1 − e^{ε−ε₀(2j−k)}),
  // p = e^{ε₀}/(1+e^{ε₀}), inputs taken as their doubles, ε by 200 bisections.
  it.each([
    [1, 1e-8, 1, 1e-6, 0.99999864579842276772],
    [0.5, 1e-7, 10, 1e-5, 4.9989687663926382759],
    [1, 1e-8, 100, 1e-5, 79.897333397623830466],
    [0.1, 1e-9, 1000, 1e-5, 17.868708005301316263],
    [0.3, 0, 50, 1e-6, 11.068063718559263211],
    [2, 1e-6, 3, 1e-3, 5.9985398889509608299],
  ])('ε of (%d, %d)-DP × %d at δ = %d', (epsilon0, delta0, k, delta, exact) => {
    const b = closedForm(steps(epsilon0, delta0, k)).epsilon(delta);
    expectBrackets(b, exact);
    expect(b.upper - b.lower).toBeLessThanOrEqual(1e-12 * exact);
    expect(b.estimate).toBeGreaterThanOrEqual(b.lower);
    expect(b.estimate).toBeLessThanOrEqual(b.upper);
  });

  it.each([
    [1, 1e-8, 1, 0.5, 0.28764914376847655847],
    [0.5, 1e-7, 10, 2, 0.14546730097428603435],
    [0.1, 0, 1000, 5, 0.38299561563153145633],
    [1, 1e-8, 100, 50, 0.28761917076170101408],
    [2, 1e-6, 3, 0, 0.92151939351036136651],
  ])('δ of (%d, %d)-DP × %d at ε = %d', (epsilon0, delta0, k, epsilon, exact) => {
    const b = closedForm(steps(epsilon0, delta0, k)).delta(epsilon);
    expectBrackets(b, exact);
    expect(b.upper - b.lower).toBeLessThanOrEqual(1e-10 * exact);
  });
});

/* eslint-enable no-loss-of-precision */

/** Inside the grid's bounds, up to their float64 rounding. */
const expectInside = (value: number, grid: { lower: number; upper: number }) => {
  expect(value).toBeGreaterThanOrEqual(grid.lower * (1 - 1e-13));
  expect(value).toBeLessThanOrEqual(grid.upper * (1 + 1e-13));
};

describe('closed form: agrees with the grid’s certified bounds', () => {
  const mixedDeltas = sequence([approxDp(1, 1e-8), approxDp(1, 1e-9), composed(pureDp(1), 3)]);
  it.each([
    ['(1, 1e-8) × 1', steps(1, 1e-8, 1), 1e-6, 0.5],
    ['(0.5, 1e-7) × 10', steps(0.5, 1e-7, 10), 1e-5, 2],
    ['(1, 1e-8) × 30', steps(1, 1e-8, 30), 1e-6, 10],
    ['0.2-DP × 200', steps(0.2, 0, 200), 1e-6, 3],
    ['(2, 1e-6) × 3', steps(2, 1e-6, 3), 1e-3, 1],
    ['ε₀ = 1 steps of δ 1e-8, 1e-9 and 0 ×3', mixedDeltas, 1e-6, 2],
  ])('%s', (_, event, delta, epsilon) => {
    const closed = closedForm(event).epsilon(delta);
    const grid = pldAccountant.epsilon(onGrid(event), delta);
    expect(grid.upper).toBeLessThan(Infinity);
    expectInside(closed.estimate, grid);
    expectInside(closedForm(event).delta(epsilon).estimate, pldAccountant.delta(onGrid(event), epsilon));
  });
});

describe('a lone (ε₀, δ₀) release', () => {
  it.each([
    [1, 1e-8],
    [0.1, 1e-5],
    [5, 1e-12],
    [30, 1e-6],
  ])('(%d, %d): ε = ε₀ exactly at δ₀, ∞ below, ≤ ε₀ above; δ(ε₀) = δ₀', (epsilon0, delta0) => {
    const event = approxDp(epsilon0, delta0);
    expect(pldAccountant.epsilon(event, delta0)).toEqual({ lower: epsilon0, estimate: epsilon0, upper: epsilon0 });
    const below = pldAccountant.epsilon(event, delta0 * (1 - 1e-15));
    expect(below).toEqual({ lower: Infinity, estimate: Infinity, upper: Infinity });
    const above = pldAccountant.epsilon(event, delta0 * (1 + 1e-15));
    expect(above.upper).toBeLessThanOrEqual(epsilon0);
    expect(pldAccountant.delta(event, epsilon0)).toEqual({ lower: delta0, estimate: delta0, upper: delta0 });
    expect(accountEpsilon(event, delta0).bounds.upper).toBe(epsilon0);
    // The 1 % planner accountant too.
    expect(createPldAccountant({ relativeGap: 1e-2 }).epsilon(event, delta0).upper).toBe(epsilon0);
  });

  it('k steps: ∞ below 1 − (1 − δ₀)^k, and δ(kε₀) = 1 − (1 − δ₀)^k', () => {
    const a = -Math.expm1(5 * Math.log1p(-1e-8));
    expect(pldAccountant.epsilon(composed(approxDp(1, 1e-8), 5), a * (1 - 1e-12)).upper).toBe(Infinity);
    expect(pldAccountant.epsilon(composed(approxDp(1, 1e-8), 5), a * (1 + 1e-12)).upper).toBeLessThanOrEqual(5 * (1 + 2 * Number.EPSILON)); // kε₀, widened by its rounding (k ≥ 3)
    const d = pldAccountant.delta(composed(approxDp(1, 1e-8), 5), 5);
    expect(d.lower).toBeLessThanOrEqual(a);
    expect(d.upper).toBeGreaterThanOrEqual(a);
  });
});

describe('which events the closed form takes', () => {
  it('pure and approx steps of one ε₀, composed and in sequence, under one relation', () => {
    expect(sharedEpsilonSteps(approxDp(1, 1e-8))).toEqual({ epsilon0: 1, count: 1, logFinite: Math.log1p(-1e-8), infinityMass: 1e-8, exactInfinity: true });
    expect(sharedEpsilonSteps(sequence([pureDp(1), composed(approxDp(1, 1e-8), 2), composed(gaussian(1), 0)]))).toMatchObject({ count: 3, exactInfinity: false });
    expect(sharedEpsilonSteps(composed(pureDp(0.5), 7))).toMatchObject({ count: 7, infinityMass: 0, exactInfinity: true });
  });

  it.each([
    ['with a Gaussian', sequence([approxDp(1, 1e-8), gaussian(1)])],
    ['with a Laplace', sequence([pureDp(1), laplace(1)])],
    ['two ε₀', sequence([approxDp(1, 1e-8), approxDp(0.5, 1e-8)])],
    ['Poisson-sampled', poissonSampled(0.1, approxDp(1, 1e-8))],
    ['sampled at q = 1', poissonSampled(1, pureDp(1))],
    ['a replace-one step in an add/remove sequence', sequence([pureDp(1), { ...pureDp(1), neighbouring: 'replace-one' }])],
    ['beyond the step limit', composed(pureDp(1), MAX_CLOSED_FORM_STEPS + 1)],
    ['nothing', composed(pureDp(1), 0)],
  ])('not %s', (_, event) => {
    expect(sharedEpsilonSteps(event)).toBeNull();
  });
});

describe('a run recorded by the grid before the closed form (its looser ε) still verifies', () => {
  it('0.05-DP × 500 at δ = 1e-8: main’s grid answer lies 1.2e-5 above the exact one, on the safe side', () => {
    const event = composed(pureDp(0.05), 500);
    const recordedByGrid = 6.497385125560627; // main's code at e28eec0, pldAccountant.epsilon(event, 1e-8).upper
    const now = pldAccountant.epsilon(event, 1e-8).upper;
    expect(now).toBeLessThan(recordedByGrid * (1 - 1e-6));
    expect(coversRecomputed(recordedByGrid, now)).toBe(true);
  });
});

describe('every other event: the grid’s answers, unmoved', () => {
  // Computed with main's code at e28eec0 (before the closed form), printed with JSON.stringify
  // (shortest round-trip digits): these must match to the last bit.
  const coarse = createPldAccountant({ relativeGap: 1e-2 });
  it.each([
    [
      'approx + subsampled Gaussian',
      sequence([approxDp(1, 1e-8), composed(poissonSampled(0.01, gaussian(1)), 100)]), 1e-6, 2,
      { lower: 1.92021647426371, estimate: 1.921018683761905, upper: 1.9218208932600997 },
      { lower: 4.975783798740004e-7, estimate: 4.977859129555301e-7, upper: 4.979934460370598e-7 },
      { lower: 1.9166017219611358, estimate: 1.924549236784916, upper: 1.9324967516086964 },
    ],
    [
      'approx steps of two ε',
      sequence([composed(approxDp(1, 1e-8), 3), composed(approxDp(0.5, 1e-8), 2)]), 1e-6, 2,
      { lower: 3.999993720801336, estimate: 3.9999937226639783, upper: 3.9999937245266204 },
      { lower: 0.24697700103992692, estimate: 0.2469770015825874, upper: 0.24697700212524787 },
      { lower: 3.999993720801336, estimate: 3.9999937226639783, upper: 3.9999937245266204 },
    ],
    [
      'pure + Laplace',
      sequence([pureDp(0.5), laplace(2)]), 1e-6, 0.5,
      { lower: 0.99924607557076, estimate: 0.9996214532580883, upper: 0.9999968309454167 },
      { lower: 0.13768751663174644, estimate: 0.13768751663174705, upper: 0.13768751663174766 },
      { lower: 0.9963194390868602, estimate: 0.9981581616777301, upper: 0.9999968842686 },
    ],
    [
      'Poisson-sampled approx',
      composed(poissonSampled(0.1, approxDp(1, 1e-8)), 10), 1e-6, 1,
      { lower: 1.4775887929458098, estimate: 1.477679096870069, upper: 1.4777694007943283 },
      { lower: 0.0003326641324065318, estimate: 0.0003326641449348975, upper: 0.00033266415746326317 },
      { lower: 1.4775887929458098, estimate: 1.477679096870069, upper: 1.4777694007943283 },
    ],
  ])('%s', (_, event, delta, epsilon, epsilonBounds, deltaBounds, coarseBounds) => {
    expect(sharedEpsilonSteps(event)).toBeNull();
    expect(pldAccountant.epsilon(event, delta)).toEqual(epsilonBounds);
    expect(pldAccountant.delta(event, epsilon)).toEqual(deltaBounds);
    expect(coarse.epsilon(event, delta)).toEqual(coarseBounds);
    expect(accountEpsilon(event, delta).bounds).toEqual(epsilonBounds);
  });
});

describe('closed form properties (fast-check)', () => {
  const settings = { numRuns: 60, seed: 20261126 };
  const epsilon0 = fc.double({ min: 0.01, max: 20, noNaN: true });
  const delta0 = fc.double({ min: 1e-12, max: 1e-2, noNaN: true });
  const count = fc.integer({ min: 1, max: 300 });
  const fraction = fc.double({ min: 1e-15, max: 1 - 1e-9, noNaN: true });

  it('a lone release: ε₀ exactly at δ₀, ∞ below δ₀, in [0, ε₀] above', () => {
    fc.assert(
      fc.property(epsilon0, delta0, fraction, (e0, d0, u) => {
        const event = approxDp(e0, d0);
        expect(pldAccountant.epsilon(event, d0)).toEqual({ lower: e0, estimate: e0, upper: e0 });
        expect(pldAccountant.epsilon(event, d0 * (1 - u)).upper).toBe(Infinity);
        const above = pldAccountant.epsilon(event, d0 + u * (1 - d0));
        expect(above.lower).toBeGreaterThanOrEqual(0);
        expect(above.upper).toBeLessThanOrEqual(e0);
      }),
      settings,
    );
  });

  it('ε(δ) falls as δ grows; δ(ε) falls as ε grows; δ at the upper ε is within δ', () => {
    fc.assert(
      fc.property(epsilon0, delta0, count, fraction, fraction, (e0, d0, k, u, v) => {
        const event = composed(approxDp(e0, d0), k);
        const a = -Math.expm1(k * Math.log1p(-d0));
        const [small, large] = [Math.min(u, v), Math.max(u, v)].map((w) => Math.min(0.999, a + w * (1 - a)));
        const atSmall = pldAccountant.epsilon(event, small);
        const atLarge = pldAccountant.epsilon(event, large);
        expect(atLarge.upper).toBeLessThanOrEqual(atSmall.upper);
        expect(atLarge.lower).toBeLessThanOrEqual(atSmall.lower);
        expect(atLarge.lower).toBeLessThanOrEqual(atSmall.upper);
        if (atLarge.upper < Infinity) expect(pldAccountant.delta(event, atLarge.upper).lower).toBeLessThanOrEqual(large);
        const [e1, e2] = [Math.min(u, v), Math.max(u, v)].map((w) => w * k * e0);
        const d1 = pldAccountant.delta(event, e1);
        const d2 = pldAccountant.delta(event, e2);
        expect(d2.upper).toBeLessThanOrEqual(d1.upper);
        expect(d2.lower).toBeLessThanOrEqual(d1.upper);
      }),
      settings,
    );
  });
});

describe('losses rounded in float64 (k ≥ 3): bounds taken on both sides of them', () => {
  it('3 × 0.3-DP: δ at the rounded top loss is still bounded above by the exact ~1e-17; ε of an (0.3, 1e-8) step and two 0.3-DP steps at δ₀ is ≥ 0.9', () => {
    const top = 3 * 0.3; // 0.8999999999999999, 5.6e-17 below the real 0.9
    const exactDelta = (0.9 - top) * (Math.exp(0.3) / (1 + Math.exp(0.3))) ** 3; // first order in the gap: P(top loss)·(1 − e^{top − 0.9})
    expect(exactDelta).toBeGreaterThan(0);
    expect(closedForm(composed(pureDp(0.3), 3)).delta(top).upper).toBeGreaterThanOrEqual(exactDelta);
    const mixed = sequence([approxDp(0.3, 1e-8), composed(pureDp(0.3), 2)]);
    expect(pldAccountant.epsilon(mixed, 1e-8).upper).toBeGreaterThanOrEqual(0.9);
  });
});
