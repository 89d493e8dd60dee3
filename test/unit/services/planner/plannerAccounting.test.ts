/**
 * The planner's accounting: the two-stage calibration (RDP guess, 1 % accountant, default
 * accountant) meets the target, is tight to its tolerance, reports the default accountant's
 * answer and is deterministic; CountedEpsilon gives certified bounds within ~1 % at every
 * count and hands what it cannot answer to the accountant.
 */
import { describe, expect, it } from 'vitest';
import { accountEpsilon, pldAccountant } from '../../../../core/accounting';
import { CalibrationError } from '../../../../core/accounting/calibration';
import { composed, gaussian, poissonSampled, pureDp, sampledWithoutReplacement, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { voteEvent } from '../../../../core/planning/answerAggregates';
import { queryGrid } from '../../../../core/planning/breakEven';
import { CountedEpsilon } from '../../../../electron/services/planner/countedEpsilon';
import { calibrateTwoStage, calibrateTwoStageDetailed, searchEpsilon } from '../../../../electron/services/planner/fastAccounting';

const DELTA = 1e-5;

const families: { name: string; family: (p: number) => PrivacyEvent; decreasing: boolean; epsilon: number }[] = [
  { name: 'subsampled Gaussian queries (σ)', family: (s) => composed(poissonSampled(0.01, gaussian(s, Math.SQRT2)), 3_000), decreasing: true, epsilon: 1 },
  { name: 'subsampled ε-DP queries (ε per query; no RDP guess)', family: (e) => composed(poissonSampled(0.02, pureDp(e)), 2_000), decreasing: false, epsilon: 2 },
  { name: 'plain Gaussian (closed form)', family: (s) => composed(gaussian(s, 1), 10), decreasing: true, epsilon: 0.5 },
  { name: 'mixed steps on two pools', family: (s) => sequence([composed(poissonSampled(0.05, gaussian(s, 1)), 64), composed(poissonSampled(0.2, gaussian(s, Math.SQRT2)), 64)]), decreasing: true, epsilon: 4 },
];

describe('calibrateTwoStageDetailed', () => {
  for (const { name, family, decreasing, epsilon } of families) {
    it(`${name}: meets the target, tight to 0.1 %, deterministic`, () => {
      const options = { family, target: { epsilon, delta: DELTA }, decreasing, tolerance: 1e-3 };
      const result = calibrateTwoStageDetailed(options);
      const reference = accountEpsilon(family(result.parameter), DELTA, { crossCheck: false });
      expect(result.account).toEqual(reference);
      expect(reference.bounds.upper).toBeLessThanOrEqual(epsilon);
      const lessNoise = decreasing ? result.parameter / 1.0011 : result.parameter * 1.0011;
      expect(accountEpsilon(family(lessNoise), DELTA, { crossCheck: false }).bounds.upper).toBeGreaterThan(epsilon);
      expect(calibrateTwoStage(options)).toBe(result.parameter);
    });
  }

  it('refuses a target no parameter meets', () => {
    // A pure 1-DP release rides along: no noise on the other one brings ε below 1.
    expect(() => calibrateTwoStageDetailed({ family: (s) => sequence([pureDp(1), gaussian(s, 1)]), target: { epsilon: 0.5, delta: DELTA }, decreasing: true })).toThrow(CalibrationError);
  });
});

describe('CountedEpsilon', () => {
  // `oneComposition`: repeated steps without point masses (Gaussian-type), where the composition
  // built for the largest count serves every count — within 0.75 % of the accountant (else 1.5 %).
  const cases: { name: string; fixed: PrivacyEvent | null; repeated: PrivacyEvent; limit: number; oneComposition: boolean }[] = [
    { name: 'answered queries (Gaussian)', fixed: null, repeated: poissonSampled(0.01, gaussian(6, Math.SQRT2)), limit: 100_000, oneComposition: true },
    { name: 'answered queries (Gaussian, large rate, a million)', fixed: null, repeated: poissonSampled(0.05, gaussian(3, 1)), limit: 1_000_000, oneComposition: true },
    { name: 'answered votes (discrete Gaussian, gridded down to one query)', fixed: null, repeated: poissonSampled(0.01, voteEvent(2)), limit: 100_000, oneComposition: true },
    { name: 'answered votes (discrete Gaussian, low noise, a million)', fixed: null, repeated: poissonSampled(0.005, voteEvent(20)), limit: 1_000_000, oneComposition: true },
    { name: 'answered queries (ε-DP)', fixed: null, repeated: poissonSampled(0.02, pureDp(0.2)), limit: 20_000, oneComposition: false },
    { name: 'plans after earlier releases', fixed: sequence([pureDp(0.5), approxFree()]), repeated: composed(poissonSampled(0.01, gaussian(6, Math.SQRT2)), 100), limit: 200, oneComposition: true },
    { name: 'Gaussian plans after ε-DP releases (point masses in the fixed part only)', fixed: sequence([pureDp(0.5), pureDp(0.3)]), repeated: composed(poissonSampled(0.05, gaussian(2, Math.SQRT2)), 50), limit: 10_000, oneComposition: true },
  ];
  for (const { name, fixed, repeated, limit, oneComposition } of cases) {
    it(`${name}: certified and within ~1 % at every count of a curve`, () => {
      const counted = new CountedEpsilon({ fixed, repeated, deltas: [DELTA], limit });
      const grid = queryGrid(limit);
      const values = counted.many(grid, DELTA);
      const reaches = new Set(grid.map((n) => counted.reach(n)));
      if (oneComposition) expect([...reaches]).toEqual([limit]);
      else expect(reaches.size).toBeGreaterThan(2); // ε-DP steps: each composition serves down to 1/16 of its count
      grid.forEach((n, i) => {
        const reference = pldAccountant.epsilon(counted.eventAt(n), DELTA);
        expect(values[i]).toBeGreaterThanOrEqual(reference.lower);
        expect(values[i]).toBeLessThanOrEqual(reference.upper * (oneComposition ? 1.0075 : 1.015) + 1e-6);
      });
    });
  }

  it("one plan's ε(δ) curve (the count is the limit): certified and within ~1 % at every δ, asked once", () => {
    const plan = sequence([pureDp(0.1), composed(poissonSampled(0.02, gaussian(1.4, Math.SQRT2)), 128)]);
    const deltas = [1e-9, 1e-7, DELTA, 1e-4];
    const counted = new CountedEpsilon({ fixed: null, repeated: plan, deltas, limit: 1 });
    for (const delta of deltas) {
      const reference = pldAccountant.epsilon(plan, delta);
      const value = counted.at(1, delta);
      expect(value).toBeGreaterThanOrEqual(reference.lower);
      expect(value).toBeLessThanOrEqual(reference.upper * 1.015 + 1e-6);
      expect(counted.at(1, delta)).toBe(value);
    }
  });

  it('hands the accountant what it cannot answer: plain Gaussians, RDP-only events, a smaller δ', () => {
    const plain = new CountedEpsilon({ fixed: null, repeated: gaussian(3, 1), deltas: [DELTA], limit: 1000 });
    expect(plain.at(500, DELTA)).toBe(searchEpsilon(composed(gaussian(3, 1), 500), DELTA));
    const rdpOnly = sampledWithoutReplacement(10, 1000, { kind: 'gaussian', sigma: 2, sensitivity: 1, neighbouring: 'replace-one' });
    expect(new CountedEpsilon({ fixed: null, repeated: rdpOnly, deltas: [DELTA], limit: 1000 }).at(300, DELTA)).toBe(searchEpsilon(composed(rdpOnly, 300), DELTA));
    const sampled = poissonSampled(0.01, gaussian(6, 1));
    expect(new CountedEpsilon({ fixed: null, repeated: sampled, deltas: [DELTA], limit: 1000 }).at(300, DELTA / 10)).toBe(searchEpsilon(composed(sampled, 300), DELTA / 10));
    expect(new CountedEpsilon({ fixed: null, repeated: sampled, deltas: [DELTA], limit: 1000 }).at(0, DELTA)).toBe(0);
  });
});

/** A Gaussian release on the whole data (a plain part beside the ε-DP one). */
function approxFree(): PrivacyEvent {
  return gaussian(4, 1);
}
