import { describe, expect, it } from 'vitest';
import { defaultTemplate } from '../../../../core/icl/prompts';
import { rougeL } from '../../../../core/icl/rouge';
import { balancedScore, promptUtility } from '../../../../core/icl/utility';
import { fakeModel } from './fakeModel';

describe('rougeL', () => {
  it('matches hand-computed values', () => {
    expect(rougeL('the cat sat on the mat', 'the cat sat on the mat')).toBe(1);
    // LCS("police killed the gunman", "police kill the gunman") = police the gunman = 3; R = P = 3/4.
    expect(rougeL('police kill the gunman', 'police killed the gunman')).toBeCloseTo(0.75, 12);
    expect(rougeL('a b', 'c d')).toBe(0);
    expect(rougeL('', 'x')).toBe(0);
  });
});

describe('promptUtility', () => {
  it('scores each example with the label of highest log-probability', async () => {
    const model = {
      ...fakeModel(),
      // Predicts "spam" exactly when the query text mentions "offer".
      scoreLabels: async (prompt: string) => (prompt.split('\n').at(-2)!.includes('offer') ? [0, -1] : [-1, 0]),
    };
    const examples = [
      { text: 'special offer now', target: 'spam' },
      { text: 'meeting at noon', target: 'ham' },
      { text: 'offer for the meeting', target: 'ham' },
    ];
    const task = { kind: 'classification' as const, labels: ['spam', 'ham'] };
    const accuracy = await promptUtility({ model, template: defaultTemplate('Classify.'), task, examples }, []);
    expect(accuracy).toBeCloseTo(2 / 3, 12);
  });
});

describe('balancedScore', () => {
  it('averages per-label accuracy: answering the common label every time scores 1/labels', () => {
    const examples = ['ham', 'ham', 'ham', 'spam'].map((target, i) => ({ text: `e${i}`, target }));
    expect(balancedScore([1, 1, 1, 0], examples)).toBe(0.5); // accuracy 0.75
    expect(balancedScore([1, 0, 1, 1], examples)).toBeCloseTo((2 / 3 + 1) / 2, 12);
  });
});
