/**
 * ε of fixed ∘ repeated^n from one discretisation: every value is a certified upper bound
 * (never below the PLD accountant's certified lower bound) and within ~1 % of the accountant's
 * upper bound, for every count up to the largest, with and without a fixed part, Gaussian and
 * pure ε-DP steps, several δ; cases it cannot answer say so.
 */
import { describe, expect, it } from 'vitest';
import { pldAccountant } from '../../../../core/accounting';
import { composed, gaussian, poissonSampled, pureDp, sampledWithoutReplacement, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { UnsupportedByPldError } from '../../../../core/accounting/pld';
import { createRepeatedComposition } from '../../../../core/planning/repeatedComposition';
import { discretise, lossRange } from '../../../../core/accounting/pld/discretise';
import { evaluateDirection } from '../../../../core/accounting/pld/direction';
import { gaussianLoss } from '../../../../core/accounting/pld/lossDistribution';
import { subsampledRemove } from '../../../../core/accounting/pld/subsampling';

const DELTA = 1e-5;

function eventAt(fixed: PrivacyEvent | null, repeated: PrivacyEvent, n: number): PrivacyEvent | null {
  if (n === 0) return fixed;
  const r = n === 1 ? repeated : composed(repeated, n);
  return fixed ? sequence([fixed, r]) : r;
}

/**
 * Certified (≥ the accountant's lower bound) and, when `precise`, within 1.5 % + 1e-6 of its
 * upper bound. A grid refined for many compositions is precise from about a sixteenth of them
 * up; below, a few steps with point masses (ε-DP) can come out several % loose.
 */
function expectClose(value: number, event: PrivacyEvent | null, delta: number, precise = true): void {
  if (event === null) {
    expect(value).toBe(0);
    return;
  }
  const reference = pldAccountant.epsilon(event, delta);
  expect(value).toBeGreaterThanOrEqual(reference.lower);
  if (precise) expect(value).toBeLessThanOrEqual(reference.upper * 1.015 + 1e-6);
  else expect(value).toBeLessThanOrEqual(reference.upper * 1.1 + 1e-6);
}

const cases: { name: string; fixed: PrivacyEvent | null; repeated: PrivacyEvent; maxCount: number; counts: number[] }[] = [
  { name: 'subsampled Gaussian queries', fixed: null, repeated: poissonSampled(0.01, gaussian(8, Math.SQRT2)), maxCount: 20_000, counts: [1, 7, 100, 1234, 20_000] },
  { name: 'subsampled ε-DP queries (keyword)', fixed: null, repeated: poissonSampled(0.02, pureDp(0.3)), maxCount: 5_000, counts: [1, 50, 999, 5_000] },
  { name: 'earlier releases, then a plan of many steps', fixed: sequence([pureDp(0.5), gaussian(4, 1)]), repeated: composed(poissonSampled(0.05, gaussian(3, 1)), 200), maxCount: 40, counts: [0, 1, 9, 40] },
  { name: 'a plan of mixed steps', fixed: pureDp(0.2), repeated: sequence([composed(poissonSampled(0.1, gaussian(5, 1)), 30), composed(poissonSampled(0.03, pureDp(0.5)), 20)]), maxCount: 50, counts: [0, 1, 17, 50] },
];

describe('createRepeatedComposition', () => {
  for (const c of cases) {
    it(`${c.name}: certified upper bounds within ~1 % at every count`, () => {
      const composition = createRepeatedComposition({ fixed: c.fixed, repeated: c.repeated, maxCount: c.maxCount, deltas: [DELTA] })!;
      for (const n of c.counts) expectClose(composition.epsilonUpper(n, DELTA), eventAt(c.fixed, c.repeated, n), DELTA, 16 * n >= c.maxCount);
      const values = c.counts.map((n) => composition.epsilonUpper(n, DELTA));
      expect(values.every((v, i) => i === 0 || v >= values[i - 1])).toBe(true);
    });
  }

  it('answers every δ it was refined for, from one discretisation', () => {
    const repeated = poissonSampled(0.01, gaussian(5, 1));
    const deltas = [1e-9, 1e-7, 1e-5, 1e-4];
    const composition = createRepeatedComposition({ fixed: null, repeated, maxCount: 3_000, deltas })!;
    for (const d of deltas) expectClose(composition.epsilonUpper(3_000, d), composed(repeated, 3_000), d);
    expect(() => composition.epsilonUpper(10, 1e-10)).toThrow(/smallest δ/);
    expect(() => composition.epsilonUpper(3_001, 1e-5)).toThrow(/n must be/);
  });

  it('leaves plain Gaussians to the closed form and refuses what PLD cannot take', () => {
    expect(createRepeatedComposition({ fixed: gaussian(2, 1), repeated: gaussian(3, 1), maxCount: 10, deltas: [DELTA] })).toBeNull();
    expect(() => createRepeatedComposition({ fixed: null, repeated: sampledWithoutReplacement(10, 100, { kind: 'gaussian', sigma: 2, sensitivity: 1, neighbouring: 'replace-one' }), maxCount: 10, deltas: [DELTA] })).toThrow(UnsupportedByPldError);
  });
});

describe('reuse of the refinement grids', () => {
  it("an evaluated direction's grids are exactly what discretise gives at its step", () => {
    const loss = subsampledRemove(0.01, gaussianLoss(Math.SQRT2 / 6));
    const parts = [{ loss, count: 100, range: lossRange(loss, 1e-12) }];
    const evaluated = evaluateDirection(parts, 0.01, 1e-11);
    expect(evaluated.grids).toHaveLength(1);
    expect(evaluated.grids[0]).toEqual(discretise(loss, 0.01, parts[0].range));
  });

  // Values of the same code with each part discretised afresh when its spectra are built (the
  // last round's grids not reused): the reuse must not move a single bit. (Regenerated when the
  // lone signals' transforms became real ones of half the size, fft.ts: they moved by ≤ 3e-12.)
  it('answers exactly as when each part was discretised again for the composition', () => {
    const withFixed = createRepeatedComposition({ fixed: pureDp(0.5), repeated: composed(poissonSampled(0.01, gaussian(6, Math.SQRT2)), 100), maxCount: 60, deltas: [1e-5, 1e-7] })!;
    expect(withFixed.sizes).toEqual([8192, 8192]);
    const expected = [
      [0.5709504108474097, 0.601643640841412],
      [0.7025741405572737, 0.7758012608523975],
      [0.9461124023235074, 1.0898964209782933],
      [1.1509099597361165, 1.3500684192461974],
    ];
    [1, 7, 30, 60].forEach((n, i) => expect([withFixed.epsilonUpper(n, 1e-5), withFixed.epsilonUpper(n, 1e-7)]).toEqual(expected[i]));
    const keyword = createRepeatedComposition({ fixed: null, repeated: poissonSampled(0.02, pureDp(0.2)), maxCount: 3000, deltas: [1e-5] })!;
    expect([10, 500, 3000].map((n) => keyword.epsilonUpper(n, 1e-5))).toEqual([0.034804297755361514, 0.3050562903729462, 0.8091131399812406]);
  });
});
