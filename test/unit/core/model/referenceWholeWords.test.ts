/**
 * The reference learner writes whole words (core/model/reference/wholeWords.ts): every word
 * of a generated text is a word of its vocabulary or of its prompt, never pieces glued into
 * a non-word ("theIferverefervere…", "lisin" of "lisinopril"), sampled or greedy, however
 * early the text is cut. Regression: the learner before sampled the full distribution.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/random/seededRandom';
import { referenceLearner } from './referenceFixture';

const model = referenceLearner();
const WORD = /[\p{L}\p{N}]+/gu;
const vocabularyWords = new Set(model.tokenizer.pieces.flatMap((p) => p.match(WORD) ?? []));

const prompts = [
  'Examples of clinic notes.\n\nText: Patient reports dizziness after starting tretinoin; advised to stop and review in two weeks.\n\n' +
    'Text: Follow-up for hypertension, lisinopril dose increased, bloodwork ordered.\n\nText:',
  'Examples of e-mails. Each answer is one of: spam, ham.\n\nText: Get your loan approved immediately, no credit check, click here now\nAnswer: spam\n\n' +
    'Text: The build broke after the last patch, can someone review the mailing list thread?\nAnswer: ham\n\nText:',
];

const unknownWords = (text: string, prompt: string) => {
  const promptWords = new Set(prompt.match(WORD));
  return (text.match(WORD) ?? []).filter((w) => !vocabularyWords.has(w) && !promptWords.has(w));
};

describe('reference learner: whole words', () => {
  it('never glues pieces into a word that neither its vocabulary nor its prompt holds (seeded sampling, any length)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 48 }), fc.constantFrom(...prompts), fc.constantFrom(0, 1, 1.5), async (seed, maxTokens, prompt, temperature) => {
        const generation = await model.generate(prompt, { maxTokens, temperature, random: seededRandom(seed) });
        expect(unknownWords(generation.text, prompt)).toEqual([]);
        expect(generation.text).toBe(model.tokenizer.decode(generation.tokens));
        expect(generation.tokens.every((t) => t > 256)).toBe(true); // no raw bytes, no end-of-text
      }),
      { seed: 7, numRuns: 60 },
    );
  }, 120_000);

  it('copies a word of its prompt that takes several tokens whole, deterministically under a seed', async () => {
    expect((await model.tokenize(' tretinoin')).length).toBeGreaterThan(1);
    const greedy = await model.generate(prompts[0], { maxTokens: 32, stop: ['\n'] });
    expect(greedy.text).toContain(' tretinoin;');
    const sampled = await model.generate(prompts[0], { maxTokens: 32, temperature: 1, random: seededRandom(3) });
    expect(sampled).toEqual(await model.generate(prompts[0], { maxTokens: 32, temperature: 1, random: seededRandom(3) }));
  });
});
