/** The utility check ends with one plain sentence: no better than a constant answer, than zero-shot, or better than both. */
import { describe, expect, it } from 'vitest';
import { utilityVerdict } from '../../../../../electron/shared/utilityVerdict';

const base = {
  metric: 'accuracy' as const, examples: 200, labels: { spam: 63, ham: 137 }, synthetic: 0.685, zeroShot: 0.675, realPublic: 0.8,
  mostCommon: { label: 'ham', accuracy: 0.685 }, model: 'reference learner',
};

describe('utilityVerdict', () => {
  it('says "no better than always answering X" when balanced accuracy is at the constant answer', () => {
    expect(utilityVerdict({ ...base, balanced: { synthetic: 0.5, zeroShot: 0.49, realPublic: 0.8 } })).toBe(
      'The DP prompt is no better than always answering “ham” (balanced accuracy 50.0 % against 50.0 %).',
    );
  });

  it('compares with zero-shot when the constant answer is beaten', () => {
    expect(utilityVerdict({ ...base, balanced: { synthetic: 0.6, zeroShot: 0.59, realPublic: 0.8 } })).toMatch(/no better than no demonstrations at all/);
    expect(utilityVerdict({ ...base, balanced: { synthetic: 0.7, zeroShot: 0.5, realPublic: 0.8 } })).toMatch(/^The DP prompt does better than always answering “ham” and than zero-shot/);
  });

  it('judges a generation task by ROUGE-L against zero-shot', () => {
    const generation = { metric: 'rouge-l' as const, examples: 10, synthetic: 0.3, zeroShot: 0.2, realPublic: null, model: 'm' };
    expect(utilityVerdict(generation)).toMatch(/^The DP prompt does better than zero-shot/);
    expect(utilityVerdict({ ...generation, synthetic: 0.21 })).toMatch(/no better than zero-shot/);
  });
});
