/**
 * The generation aggregations (embedding, keyword-EM, keyword-PTR, SGA) on the real llama.cpp
 * path: the generated tiny GGUF in its child process answers as teachers, embeds, and writes
 * the public candidates; every query releases a public candidate or keywords of the public
 * universe, and reports the event its mechanism charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuery, type AnswerSettings } from '../../../core/icl/answering/answerQuery';
import { mechanismEvent } from '../../../core/icl/answering/answerEvents';
import { keywordUniverse } from '../../../core/icl/answering/keywords';
import { DEFAULT_SGA_SETTINGS } from '../../../core/icl/answering/sga/semanticGroups';
import { inMemoryPool } from '../../../core/icl/privatePool';
import { defaultTemplate } from '../../../core/icl/prompts';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import { workspace, type Workspace } from '../model/modelFixture';

let ws: Workspace;
let model: LanguageModel;

beforeAll(async () => {
  ws = workspace('answer-gguf');
  const job = await ws.load(ws.gguf('tiny.gguf'), { threads: 1, sequences: 4 });
  expect(job.status).toBe('succeeded');
  model = await (await getModelService(ws.ctx)).current();
}, 120_000);
afterAll(async () => ws?.remove());

/** The model, recording what it generates from prompts that hold no private record (the public candidates). */
function recording(publicOutputs: string[]): LanguageModel {
  return new Proxy(model, {
    get: (target, key) =>
      key === 'generate'
        ? async (prompt: string, options: Parameters<LanguageModel['generate']>[1]) => {
            const generation = await target.generate(prompt, options);
            if (!prompt.includes('note ')) publicOutputs.push(generation.text.trim());
            return generation;
          }
        : Reflect.get(target, key),
  });
}

const settings = (method: AnswerSettings['method'], noise: number, publicOutputs: string[]): AnswerSettings => ({
  model: recording(publicOutputs), method, noise,
  pool: inMemoryPool(Array.from({ length: 12 }, (_, i) => ({ text: `note ${i} about the river`, output: `the river ${i}` }))),
  template: defaultTemplate('Answer each text as in the examples.'), task: { kind: 'generation' },
  ensemble: 4, shots: 2, q: 1, ptrDelta: 1e-6, keywords: 3, candidates: 4, candidateTemperature: 1, maxTokens: 6, random: cryptoRandom,
});

describe('answering on llama.cpp (tiny GGUF)', () => {
  it('embedding space aggregation releases one of the public candidates', async () => {
    const publicOutputs: string[] = [];
    const { result, event, failures } = await answerQuery(settings('embedding', 2, publicOutputs), 'which river?');
    expect(publicOutputs).toHaveLength(4);
    expect(publicOutputs).toContain(result.answer);
    expect(event).toEqual({ kind: 'gaussian', sigma: 2, sensitivity: 2, neighbouring: 'add-remove' });
    expect(failures).toBe(0);
  }, 120_000);

  it('keyword aggregation (joint EM and PTR) releases only words of the query and the public candidates', async () => {
    for (const method of ['keyword', 'ptr'] as const) {
      const publicOutputs: string[] = [];
      const query = 'which river crosses the town?';
      const { result, event } = await answerQuery(settings(method, 4, publicOutputs), query);
      expect(event?.kind).toBe(method === 'keyword' ? 'pure' : 'sequence');
      const universe = keywordUniverse(query, publicOutputs.slice(0, 4)); // the 4 candidates come first
      for (const word of result.keywords ?? []) expect(universe).toContain(word);
      if (method === 'ptr') expect(typeof result.ptrPassed).toBe('boolean');
    }
    expect(keywordUniverse('which river crosses the town?', [])).toEqual(['river', 'crosses', 'town']);
  }, 240_000);

  it('semantic group aggregation releases one of the public ensemble’s answers (issue 15)', async () => {
    const publicOutputs: string[] = [];
    const publicExamples = Array.from({ length: 6 }, (_, i) => ({ text: `public item ${i} on bridges`, output: `a bridge ${i}` }));
    const s = { ...settings('sga', 0.5, publicOutputs), publicExamples, sga: { dpm: DEFAULT_SGA_SETTINGS, candidates: 2, selection: 'model' as const } };
    const { result, event, failures } = await answerQuery(s, 'which bridge?');
    expect(publicOutputs).toHaveLength(4); // the public ensemble: no zero-shot candidates, no private prompt recorded
    for (const candidate of result.candidates!) expect(publicOutputs).toContain(candidate);
    expect(result.candidates![result.selected!]).toBe(result.answer);
    expect(event).toEqual(mechanismEvent('sga', 0.5, 0, 0.5, DEFAULT_SGA_SETTINGS.depth));
    expect(failures).toBe(0);
  }, 240_000);
});
