import { describe, expect, it } from 'vitest';
import { bootstrapAurocInterval } from '../../../../core/audit/bootstrap';
import { advantage, auroc, rocCurve, tprAtFpr, type ScoredCandidate } from '../../../../core/audit/roc';
import { normalCdf } from '../../../../core/math/normal';
import { sampleStandardNormal } from '../../../../core/random/samplers';
import { seededRandom } from '../../../../core/random/seededRandom';

const scored = (members: number[], others: number[]): ScoredCandidate[] => [
  ...members.map((score) => ({ score, member: true })),
  ...others.map((score) => ({ score, member: false })),
];

describe('ROC and AUROC', () => {
  // Hand-computed: members 0.9, 0.8, 0.5; non-members 0.7, 0.5, 0.2, 0.1 (one tie at 0.5).
  // Pairs won: 4 + 4 + (2 + ½ for the tie) = 10.5 of 12 → AUROC 0.875; trapezoids 1/6 + 5/24 + 1/2 = 21/24.
  const example = scored([0.9, 0.8, 0.5], [0.7, 0.5, 0.2, 0.1]);

  it('agrees with the hand-computed curve, ties as one diagonal step', () => {
    const curve = rocCurve(example).map(({ fpr, tpr }) => [fpr, tpr]);
    expect(curve).toEqual([[0, 0], [0, 1 / 3], [0, 2 / 3], [0.25, 2 / 3], [0.5, 1], [0.75, 1], [1, 1]]);
  });

  it('agrees with the hand-computed AUROC (ties count ½) and the trapezoid area', () => {
    expect(auroc(example)).toBeCloseTo(0.875, 12);
    const curve = rocCurve(example);
    const area = curve.slice(1).reduce((s, p, i) => s + (p.fpr - curve[i].fpr) * (p.tpr + curve[i].tpr) / 2, 0);
    expect(area).toBeCloseTo(0.875, 12);
  });

  it('TPR at low FPR and the advantage', () => {
    const curve = rocCurve(example);
    expect(tprAtFpr(curve, 0.01)).toBeCloseTo(2 / 3, 12);
    expect(tprAtFpr(curve, 0.25)).toBeCloseTo(2 / 3, 12);
    expect(tprAtFpr(curve, 0.5)).toBe(1);
    expect(advantage(curve)).toBeCloseTo(2 / 3, 12);
  });

  it('all scores tied is a random guess: AUROC ½, the diagonal, no advantage', () => {
    const tied = scored([1, 1], [1, 1, 1]);
    expect(auroc(tied)).toBe(0.5);
    expect(rocCurve(tied).map(({ fpr, tpr }) => [fpr, tpr])).toEqual([[0, 0], [1, 1]]);
    expect(advantage(rocCurve(tied))).toBe(0);
  });

  it('perfect separation and its reverse', () => {
    expect(auroc(scored([3, 4], [1, 2]))).toBe(1);
    expect(auroc(scored([1, 2], [3, 4]))).toBe(0);
  });

  it('refuses a single class and NaN scores', () => {
    expect(() => auroc(scored([1], []))).toThrow(/member and one non-member/);
    expect(() => rocCurve(scored([NaN], [1]))).toThrow(/NaN/);
  });
});

describe('bootstrap AUROC interval', () => {
  it('covers the true AUROC about 95 % of the time (seeded simulation)', () => {
    // Members ~ N(0.5, 1), non-members ~ N(0, 1): AUROC = Φ(0.5/√2) = 0.63816. 120 trials of
    // 80 + 80 candidates, 300 replicates. Nominal coverage 0.95; the percentile bootstrap runs
    // slightly under it. Threshold 0.85: ≥ 4 binomial standard deviations (0.02) below 0.95.
    const random = seededRandom('audit.bootstrap');
    const truth = normalCdf(0.5 / Math.SQRT2);
    let covered = 0;
    const trials = 120;
    for (let t = 0; t < trials; t++) {
      const data = scored(Array.from({ length: 80 }, () => 0.5 + sampleStandardNormal(random)), Array.from({ length: 80 }, () => sampleStandardNormal(random)));
      const ci = bootstrapAurocInterval(data, random, 300);
      if (ci.lower <= truth && truth <= ci.upper) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.85);
    expect(covered / trials).toBeLessThan(1);
  });

  it('is reproducible with a fixed seed and brackets the point estimate', () => {
    const data = scored([0.9, 0.8, 0.5, 0.4, 0.7], [0.7, 0.5, 0.2, 0.1, 0.3]);
    const a = bootstrapAurocInterval(data, seededRandom(7), 200);
    const b = bootstrapAurocInterval(data, seededRandom(7), 200);
    expect(a).toEqual(b);
    expect(a.lower).toBeLessThanOrEqual(auroc(data));
    expect(a.upper).toBeGreaterThanOrEqual(auroc(data));
  });
});
