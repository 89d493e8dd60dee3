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
import { composed, gaussian, laplace, poissonSampled, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { convolvePower } from '../../../../core/accounting/pld/compose';
import { discretise, lossRange } from '../../../../core/accounting/pld/discretise';
import { gaussianLoss } from '../../../../core/accounting/pld/lossDistribution';
import { pldAccountant } from '../../../../core/accounting/pld';
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

  it('composing k then m steps equals composing k + m steps', () => {
    fc.assert(
      fc.property(q, sigma, fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), delta, (rate, s, k, m, d) => {
        const step = poissonSampled(rate, gaussian(s));
        expect(pldAccountant.epsilon(sequence([composed(step, k), composed(step, m)]), d)).toEqual(pldAccountant.epsilon(composed(step, k + m), d));
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
