/**
 * The augmentation writer's answers (exampleWriter.ts). A generated example whose model wrote no
 * usable answer — out of tokens before it, or a label followed by more text — used to be stored
 * unlabelled (the utility bench found 0 of 20 examples labelled on both samples with the reference
 * learner); now the model answers its own text: by its label scores for classification, a greedy
 * line for generation. The answering prompt holds only the public seeds and the written text.
 */
import { describe, expect, it } from 'vitest';
import { AUGMENTATION_ANSWER_PREFIX } from '../../../../core/icl/augmentation/augmentationPrompt';
import type { GenerateOptions, LanguageModel } from '../../../../core/model/languageModel';
import { exampleWriter } from '../../../../electron/services/augmentation/exampleWriter';
import type { SynthesisDataset, SynthesisSource } from '../../../../electron/services/synthesis/synthesisSource';

const classification: SynthesisDataset = { id: 1, name: 'mail', createdAt: '2026-01-01T00:00:00.000Z', task: 'classification', labels: ['spam', 'ham'], privacyUnit: 'record' };
const generation: SynthesisDataset = { ...classification, name: 'notes', task: 'generation', labels: [] };
const source: SynthesisSource = {
  dataset: async () => classification,
  pool: async () => {
    throw new Error('no private pool');
  },
  examples: async () => [],
};

/** A model (not the reference learner: it writes itself) whose texts are `writes` in turn; it scores " spam" highest; a greedy answer line is "summary line". */
function scriptedModel(writes: string[], prompts: { generate: string[]; score: string[] }): LanguageModel {
  const unsupported = () => Promise.reject(new Error('not in the fake'));
  let next = 0;
  return {
    info: { backend: 'llama.cpp', name: 'scripted', kind: 'llm', vocabularySize: null, contextLength: null, embeddingDimension: null },
    capabilities: { tokenize: false, fullDistribution: false, restrictedDistribution: false, batchedEvaluation: false, generate: true, scoreLabels: true, embeddings: false, maxTopTokens: null },
    tokenize: unsupported, detokenize: unsupported, tokenText: unsupported, nextTokenDistribution: unsupported, nextTokenDistributions: unsupported, topNextTokens: unsupported, embed: unsupported,
    async scoreLabels(prompt, labels) {
      prompts.score.push(prompt);
      return labels.map((l) => (l === ' spam' ? -1 : -2));
    },
    async generate(prompt, options: GenerateOptions) {
      prompts.generate.push(String(prompt));
      if (options.temperature === 0) return { text: ' summary line', tokens: [], finishReason: 'stop' };
      return { text: writes[next++], tokens: [], finishReason: 'length' };
    },
    close: async () => undefined,
  };
}

const seeds = [{ text: 'Cheap pills, click now', answer: 'spam' }, { text: 'Lunch on Friday?', answer: 'ham' }];

async function writeAll(dataset: SynthesisDataset, writes: string[]) {
  const prompts = { generate: [] as string[], score: [] as string[] };
  const write = await exampleWriter({
    model: scriptedModel(writes, prompts), source, dataset, instruction: 'E-mails.', seeds: dataset.task === 'classification' ? seeds : seeds.map((s) => ({ ...s, answer: 'a summary' })),
    maxTokens: 50, tags: ['generated', 'augmentation-7'], holds: async () => false,
  });
  const records = [];
  for (let i = 0; i < writes.length; i++) records.push(await write(i));
  return { records, prompts };
}

describe('augmentation writer answers', () => {
  it('labels a classification example cut before its answer by the model’s label scores, from the public seeds and its own text only', async () => {
    const { records, prompts } = await writeAll(classification, [' Win a free cruise, reply with your bank details and']);
    expect(records[0]).toEqual({ text: 'Win a free cruise, reply with your bank details and', label: 'spam', split: 'public', tags: ['generated', 'augmentation-7'] });
    expect(prompts.score).toHaveLength(1);
    expect(prompts.score[0].startsWith(prompts.generate[0])).toBe(true);
    expect(prompts.score[0].endsWith(`Win a free cruise, reply with your bank details and\n${AUGMENTATION_ANSWER_PREFIX}`)).toBe(true);
  });

  it('keeps the first line of a written answer when it is a label, and asks nothing more', async () => {
    const { records, prompts } = await writeAll(classification, [' Meeting moved to 3pm\nAnswer: ham\nThanks, Bob']);
    expect(records[0]).toMatchObject({ text: 'Meeting moved to 3pm', label: 'ham' });
    expect(prompts.score).toHaveLength(0);
  });

  it('scores the labels when the written answer is not one of them', async () => {
    const { records } = await writeAll(classification, [' Hello there\nAnswer: maybe']);
    expect(records[0]).toMatchObject({ text: 'Hello there', label: 'spam' });
  });

  it('completes a generation example cut before its answer with a greedy answer line', async () => {
    const { records, prompts } = await writeAll(generation, [' Patient seen for a cough lasting']);
    expect(records[0]).toMatchObject({ text: 'Patient seen for a cough lasting', output: 'summary line' });
    expect(prompts.generate[1].endsWith(`Patient seen for a cough lasting\n${AUGMENTATION_ANSWER_PREFIX}`)).toBe(true);
  });
});
