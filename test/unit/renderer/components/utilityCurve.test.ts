/** The utility-against-ε curve's requests (Synthesize page and planner) and its description. */
import { describe, expect, it } from 'vitest';
import { curveDescription, curveEpsilons, curveFromPlan, curveFromSynthesis } from '../../../../renderer/src/components/utilityCurve';

describe('utility curve', () => {
  it("adds the ε being chosen to 1, 2, 4, 8, once and in order", () => {
    expect(curveEpsilons(null)).toEqual([1, 2, 4, 8]);
    expect(curveEpsilons(4)).toEqual([1, 2, 4, 8]);
    expect(curveEpsilons(3)).toEqual([1, 2, 3, 4, 8]);
    expect(curveEpsilons(-1)).toEqual([1, 2, 4, 8]);
  });

  it("takes the job's settings without its ε, and the planner's synthetic-prompt workload only", () => {
    expect(curveFromSynthesis({ dataset: 'mail', epsilon: 0.5, shots: 2 })).toEqual({ dataset: 'mail', shots: 2, epsilons: [0.5, 1, 2, 4, 8], limit: 200 });
    const synth = { kind: 'synth', method: 'dp-few-shot-gaussian', shots: 4, teachers: 10, perTeacher: 1, topK: 100, maxTokens: 64, rounds: 2 } as const;
    expect(curveFromPlan({ dataset: 'mail', epsilon: 6, delta: 1e-6, workload: synth })).toEqual({
      dataset: 'mail', delta: 1e-6, method: 'dp-few-shot-gaussian', shots: 4, teachers: 10, perTeacher: 1, topK: 100, maxTokens: 64, rounds: 2, epsilons: [1, 2, 4, 6, 8], limit: 200,
    });
    expect(curveFromPlan({ dataset: 'mail', epsilon: 6, workload: { kind: 'answer' } as never })).toBeNull();
  });

  it('describes every point and the bars, and says nothing was charged', () => {
    const noise = { kind: 'gaussian' as const, sigma: 1 };
    const text = curveDescription({ dataset: 'mail', metric: 'balanced accuracy', constant: 0.5, points: [{ epsilon: 1, noise, synthetic: 0.55, zeroShot: 0.49, realPublic: 0.7 }, { epsilon: 4, noise, synthetic: 0.8, zeroShot: 0.49, realPublic: 0.7 }] });
    expect(text).toBe('balanced accuracy of the DP prompt previewed on the public split — ε = 1: 0.550; ε = 4: 0.800. Zero-shot 0.490; a constant answer 0.500. Nothing was charged.');
  });
});
