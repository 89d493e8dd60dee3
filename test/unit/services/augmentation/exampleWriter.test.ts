/**
 * The augmentation writer's answers (exampleWriter.ts): a written label followed by more text keeps
 * its first line; an example without a usable answer — out of tokens before it, or not a label —
 * is stored without one, and the model is not asked to answer its own text (the utility bench
 * measured that rule: its labels made public demonstrations worse, README "Augmenting a thin
 * public set"). Each written text is hashed once: the hash both finds a repeat of an example
 * already written and asks whether the dataset holds the text.
 */
import { describe, expect, it, vi } from 'vitest';
import type { GenerateOptions, LanguageModel } from '../../../../core/model/languageModel';
import { exampleWriter } from '../../../../electron/services/augmentation/exampleWriter';
import * as normalise from '../../../../electron/services/vault/normalise';
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

/** A model (not the reference learner: it writes itself) whose texts are `writes` in turn; it records every prompt it is asked to score or to answer greedily. */
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

vi.mock('../../../../electron/services/vault/normalise', async (actual) => {
  const module = await actual<typeof normalise>();
  return { ...module, contentHash: vi.fn(module.contentHash) };
});

async function writeAll(dataset: SynthesisDataset, writes: string[], holds: (hash: string) => Promise<boolean> = async () => false, examples = writes.length) {
  const prompts = { generate: [] as string[], score: [] as string[] };
  const write = await exampleWriter({
    model: scriptedModel(writes, prompts), source, dataset, instruction: 'E-mails.', seeds: dataset.task === 'classification' ? seeds : seeds.map((s) => ({ ...s, answer: 'a summary' })),
    maxTokens: 50, tags: ['generated', 'augmentation-7'], holds,
  });
  const records = [];
  for (let i = 0; i < examples; i++) records.push(await write(i));
  return { records, prompts };
}

describe('augmentation writer answers', () => {
  it('keeps the first line of a written answer when it is a label, and asks nothing more', async () => {
    const { records, prompts } = await writeAll(classification, [' Meeting moved to 3pm\nAnswer: ham\nThanks, Bob']);
    expect(records[0]).toMatchObject({ text: 'Meeting moved to 3pm', label: 'ham' });
    expect(prompts.score).toHaveLength(0);
  });

  it('stores a classification example cut before its answer, or answered with no label, unlabelled without asking the model', async () => {
    const { records, prompts } = await writeAll(classification, [' Win a free cruise, reply with your bank details and', ' Hello there\nAnswer: maybe']);
    expect(records).toEqual([
      { text: 'Win a free cruise, reply with your bank details and', label: undefined, split: 'public', tags: ['generated', 'augmentation-7'] },
      { text: 'Hello there', label: undefined, split: 'public', tags: ['generated', 'augmentation-7'] },
    ]);
    expect(prompts.score).toHaveLength(0);
    expect(prompts.generate).toHaveLength(2);
  });

  it('stores a generation example cut before its answer without an output, with no greedy completion', async () => {
    const { records, prompts } = await writeAll(generation, [' Patient seen for a cough lasting']);
    expect(records[0]).toMatchObject({ text: 'Patient seen for a cough lasting', output: undefined });
    expect(prompts.generate).toHaveLength(1);
  });

  it('hashes each written text once, skipping a repeat of an example it wrote and a text the dataset holds', async () => {
    const { contentHash } = await vi.importActual<typeof normalise>('../../../../electron/services/vault/normalise');
    const hashed = vi.mocked(normalise.contentHash);
    hashed.mockClear();
    const asked: string[] = [];
    const held = contentHash('A held text');
    const holds = async (hash: string) => (asked.push(hash), hash === held);
    const writes = [' Lunch on Friday?\nAnswer: ham', ' LUNCH  on friday?\nAnswer: ham', ' A held text\nAnswer: ham', ' Meeting at noon\nAnswer: ham'];
    const { records } = await writeAll(classification, writes, holds, 2);
    expect(records.map((r) => r?.text)).toEqual(['Lunch on Friday?', 'Meeting at noon']);
    expect(hashed).toHaveBeenCalledTimes(writes.length);
    // The repeat (the same text as the vault normalises it) is found among the written ones without asking.
    expect(asked).toEqual([contentHash('Lunch on Friday?'), held, contentHash('Meeting at noon')]);
  });
});
