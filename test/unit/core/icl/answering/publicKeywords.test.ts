import { describe, expect, it } from 'vitest';
import { answerQuery, keywordPrompt, type AnswerSettings } from '../../../../../core/icl/answering/answerQuery';
import { publicEnsembleAnswers } from '../../../../../core/icl/answering/publicEnsemble';
import { inMemoryPool } from '../../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../../core/icl/prompts';
import { allowSeededOnPrivatePath } from '../../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../../core/random/seededRandom';
import { answerFakeModel } from './answerFakeModel';

// Private teachers repeat their records' outputs; public teachers their public examples' outputs (answerFakeModel).
const privateRecords = Array.from({ length: 40 }, (_, i) => ({ text: `note ${i}`, output: 'harbour zanzibar' }));
const publicExamples = [{ text: 'public note', output: 'harbour lighthouse' }];

function keywordSettings(overrides: Partial<AnswerSettings> = {}): AnswerSettings {
  return {
    model: answerFakeModel(), pool: inMemoryPool(privateRecords), template: defaultTemplate('Answer.'), task: { kind: 'generation' },
    method: 'keyword', ensemble: 6, shots: 2, q: 1, noise: null, ptrDelta: 1e-6, keywords: 2, candidates: 3, candidateTemperature: 1, maxTokens: 16,
    random: allowSeededOnPrivatePath(seededRandom(5), 'test'), ...overrides,
  };
}

describe('keyword aggregation with public data', () => {
  it('the public ensemble’s answers widen the universe; the counts stay the private teachers’', async () => {
    const without = await answerQuery(keywordSettings(), 'where to moor?');
    expect(without.result.keywords).not.toContain('harbour'); // not in the query nor the zero-shot candidates
    const calls: string[] = [];
    const withPublic = await answerQuery(keywordSettings({ model: answerFakeModel(calls), publicExamples }), 'where to moor?');
    // "harbour" is counted by every private teacher; "lighthouse" only by public ones (count 0): the top keyword is harbour.
    expect(withPublic.result.keywords?.[0]).toBe('harbour');
    expect(withPublic.result.keywords).not.toContain('zanzibar'); // private-only words never enter the universe
    expect(calls.some((p) => p.includes('Answers written from public examples: harbour lighthouse'))).toBe(true);
    expect(calls.filter((p) => p.includes('Answers written from public examples')).every((p) => !p.includes('zanzibar'))).toBe(true);
  });

  it('the ε-DP keyword release keeps its event with public data', async () => {
    const noisy = await answerQuery(keywordSettings({ noise: 2, publicExamples }), 'where to moor?');
    expect(noisy.event).toEqual({ kind: 'pure', epsilon: 2, neighbouring: 'add-remove' });
  });

  it('the public ensemble has the private one’s shape and reads only the public examples', async () => {
    const seen: number[] = [];
    const examples = Array.from({ length: 5 }, (_, i) => ({ text: `p${i}`, output: `o${i}` }));
    const answers = await publicEnsembleAnswers({ examples, ensemble: 4, shots: 3, random: seededRandom(2) }, async (demos) => (seen.push(demos.length), demos.map((d) => d.output).join(' ')));
    expect(answers).toHaveLength(4);
    expect(seen).toEqual([3, 3, 3, 3]);
    expect(answers.join(' ').split(' ').every((w) => /^o[0-4]$/.test(w))).toBe(true);
    expect(await publicEnsembleAnswers({ examples: [], ensemble: 4, shots: 3, random: seededRandom(2) }, async () => 'x')).toEqual([]);
  });

  it('the final prompt names the public answers only when there are some', () => {
    expect(keywordPrompt(defaultTemplate('Answer.'), 'q', ['a'])).not.toContain('public examples');
    expect(keywordPrompt(defaultTemplate('Answer.'), 'q', ['a'], ['x y'])).toContain('Answers written from public examples: x y');
  });
});
