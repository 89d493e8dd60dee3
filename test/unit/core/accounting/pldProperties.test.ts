/**
 * Properties of the PLD accountant over random events (fast-check, fixed seed).
 *
 * Monotonicity is checked on the certified bounds: if the true ε (δ) is monotone, a lower
 * bound at the smaller side can never exceed the upper bound at the larger side, whatever
 * grids the two queries chose. Estimates are monotone up to the certified widths (≤ 0.1 %
 * of ε plus 1e-6, the default refinement target).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composed, gaussian, laplace, poissonSampled, pureDp, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { convolvePower } from '../../../../core/accounting/pld/compose';
import { discretise, lossRange } from '../../../../core/accounting/pld/discretise';
import { gaussianLoss } from '../../../../core/accounting/pld/lossDistribution';
import { pldAccountant } from '../../../../core/accounting/pld';
import { planEvent } from '../../../../core/accounting/pld/plan';
import { subsampledRemove } from '../../../../core/accounting/pld/subsampling';

const settings = { numRuns: 25, seed: 20261122 };
const psg = (q: number, sigma: number, steps: number): PrivacyEvent => composed(poissonSampled(q, gaussian(sigma)), steps);
const q = fc.double({ min: 1e-3, max: 0.5, noNaN: true });
const sigma = fc.double({ min: 0.5, max: 4, noNaN: true });
const steps = fc.integer({ min: 1, max: 2000 });
const delta = fc.constantFrom(1e-4, 1e-6, 1e-8);

/** ε(larger) ≥ ε(smaller) as far as the certified bounds can tell. */
function expectOrdered(smaller: PrivacyEvent, larger: PrivacyEvent, d: number): void {
  const a = pldAccountant.epsilon(smaller, d);
  const b = pldAccountant.epsilon(larger, d);
  expect(a.lower).toBeLessThanOrEqual(b.upper);
  expect(a.estimate).toBeLessThanOrEqual(b.estimate + 1e-3 * b.upper + 1e-6);
}

describe('PLD accountant properties', () => {
  it('ε falls as σ grows', () => {
    fc.assert(
      fc.property(q, sigma, sigma, steps, delta, (rate, s1, s2, t, d) => {
        expectOrdered(psg(rate, Math.max(s1, s2), t), psg(rate, Math.min(s1, s2), t), d);
      }),
      settings,
    );
  });

  it('ε rises with the number of steps and the sampling rate', () => {
    fc.assert(
      fc.property(q, q, sigma, steps, steps, delta, (q1, q2, s, t1, t2, d) => {
        expectOrdered(psg(q1, s, Math.min(t1, t2)), psg(q1, s, Math.max(t1, t2)), d);
        expectOrdered(psg(Math.min(q1, q2), s, t1), psg(Math.max(q1, q2), s, t1), d);
      }),
      settings,
    );
  });

  it('δ(ε) decreases in ε', () => {
    fc.assert(
      fc.property(q, sigma, steps, fc.double({ min: 0, max: 5, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), (rate, s, t, e1, e2) => {
        const event = psg(rate, s, t);
        const low = pldAccountant.delta(event, Math.min(e1, e2));
        const high = pldAccountant.delta(event, Math.max(e1, e2));
        expect(high.lower).toBeLessThanOrEqual(low.upper);
        expect(high.estimate).toBeLessThanOrEqual(low.estimate * (1 + 1e-3) + 1e-11);
      }),
      settings,
    );
  });

  it('composing k then m steps equals composing k + m steps (two distinct parts, not merged)', () => {
    fc.assert(
      fc.property(q, sigma, fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), delta, (rate, s, k, m, d) => {
        // σ and σ·(1 + 1e-12) are distinct mechanisms to the accountant (planEvent does not
        // merge them), so the split event is composed by FFT from two parts with their own
        // counts; its true ε differs from the k + m composition by ~1e-12 relative, far inside
        // the certified widths.
        const step = poissonSampled(rate, gaussian(s));
        const nudged = poissonSampled(rate, gaussian(s * (1 + 1e-12)));
        const split = sequence([composed(step, k), composed(nudged, m)]);
        expect(planEvent(split).parts.map((p) => p.count)).toEqual([k, m]);
        const a = pldAccountant.epsilon(split, d);
        const b = pldAccountant.epsilon(composed(step, k + m), d);
        expect(a.lower).toBeLessThanOrEqual(b.upper);
        expect(b.lower).toBeLessThanOrEqual(a.upper);
        expect(Math.abs(a.estimate - b.estimate)).toBeLessThanOrEqual(1e-3 * b.upper + 1e-6);
        // A heterogeneous sequence in either order: the same answer up to FFT rounding (inside each other's bounds).
        const other = composed(laplace(20), k);
        const ab = pldAccountant.epsilon(sequence([composed(step, m), other]), d);
        const ba = pldAccountant.epsilon(sequence([other, composed(step, m)]), d);
        expect(ab.lower).toBeLessThanOrEqual(ba.upper);
        expect(ba.lower).toBeLessThanOrEqual(ab.upper);
        expect(Math.abs(ab.estimate - ba.estimate)).toBeLessThanOrEqual(1e-6 * ab.upper);
      }),
      { ...settings, numRuns: 10 },
    );
  });

  it('k steps of ε₁-DP then m of ε₂-DP: δ(ε) brackets the exact two-binomial sum', () => {
    // The reference owes nothing to the accountant's merging or FFT: the composed loss is Σ ±εᵢ, with
    // +εᵢ w.p. pᵢ = e^{εᵢ}/(1 + e^{εᵢ}); δ(ε) = E[(1 − e^{ε − L})₊] summed over both binomials.
    const logFactorial = (n: number) => Array.from({ length: n }, (_, i) => Math.log(i + 1)).reduce((a, b) => a + b, 0);
    const logChoose = (n: number, j: number) => logFactorial(n) - logFactorial(j) - logFactorial(n - j);
    const exactDelta = (e1: number, k: number, e2: number, m: number, epsilon: number) => {
      const logP = (e: number) => -Math.log1p(Math.exp(-e));
      const logNotP = (e: number) => -Math.log1p(Math.exp(e));
      let total = 0;
      for (let i = 0; i <= k; i++) {
        for (let j = 0; j <= m; j++) {
          const loss = (2 * i - k) * e1 + (2 * j - m) * e2;
          if (loss <= epsilon) continue;
          const logMass = logChoose(k, i) + i * logP(e1) + (k - i) * logNotP(e1) + logChoose(m, j) + j * logP(e2) + (m - j) * logNotP(e2);
          total += Math.exp(logMass) * -Math.expm1(epsilon - loss);
        }
      }
      return total;
    };
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 0.5, noNaN: true }),
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        (e1, ratio, k, m, epsilon) => {
          const e2 = e1 * ratio; // both on the lattice of e1: the grid holds every point mass exactly
          const event = sequence([composed(pureDp(e1), k), composed(pureDp(e2), m)]);
          expect(planEvent(event).parts).toHaveLength(2);
          const exact = exactDelta(e1, k, e2, m, epsilon);
          const got = pldAccountant.delta(event, epsilon);
          expect(got.lower).toBeLessThanOrEqual(exact * (1 + 1e-9) + 1e-12);
          expect(got.upper).toBeGreaterThanOrEqual(exact * (1 - 1e-9) - 1e-12);
          expect(Math.abs(got.estimate - exact)).toBeLessThanOrEqual(1e-3 * exact + 1e-10);
        },
      ),
      { ...settings, numRuns: 20 },
    );
  });

  it('the FFT power of k then m equals the power k + m to 1e-13 of the total mass', () => {
    fc.assert(
      fc.property(q, sigma, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (rate, s, k, m) => {
        const loss = subsampledRemove(rate, gaussianLoss(1 / s));
        const { upper } = discretise(loss, 2e-3, lossRange(loss, 1e-16));
        const part = (count: number) => ({ offset: upper.offset, signals: [upper.masses], count });
        const size = 1 << 16;
        const offset = upper.offset * (k + m) - size / 4;
        const split = convolvePower([part(k), part(m)], [offset], size).signals[0];
        const whole = convolvePower([part(k + m)], [offset], size).signals[0];
        expect(Math.max(...split.map((v, j) => Math.abs(v - whole[j])))).toBeLessThan(1e-13);
      }),
      { ...settings, numRuns: 8 },
    );
  });
});
