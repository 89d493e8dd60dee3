/**
 * Teachers answered together (a backend's generateEach / scoreLabelsEach, as llama.cpp with KV
 * reuse) only where the backend is batch-invariant (`capabilities.batchInvariant`: a prompt's
 * result does not depend on its batch-mates); elsewhere each teacher is its own call, one at a
 * time. Together: the same answers as one teacher at a time; a batched call that fails as a whole (a
 * server refusing one prompt fails the request) falls back to one call per teacher, so only
 * the failing teacher gives "no answer"; a teacher the batch gives nothing is that teacher's
 * failure; cancellation is rethrown.
 */
import { describe, expect, it } from 'vitest';
import { answerBatch } from '../../../../../core/icl/answering/answerBatch';
import type { AnswerSettings } from '../../../../../core/icl/answering/answerQuery';
import { inMemoryPool, type PoolRecord } from '../../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../../core/icl/prompts';
import type { LanguageModel, Prompt } from '../../../../../core/model/languageModel';
import { allowSeededOnPrivatePath } from '../../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../../core/random/seededRandom';
import { answerFakeModel } from './answerFakeModel';

/** The fake with batched teacher calls: each prompt answered as alone, the whole call failing when one prompt does (or `nulls` dropped). */
function batchedFake(batches: string[][], alone: string[], nulls = new Set<number>(), batchInvariant = true): LanguageModel {
  const inner = answerFakeModel(alone);
  const each = <R>(given: readonly (Prompt | null)[], one: (p: string) => Promise<R>) => {
    const prompts = given.map((p) => (p === null ? null : String(p)));
    batches.push(prompts.filter((p): p is string => p !== null));
    if (prompts.some((p) => p?.includes('FAIL'))) return Promise.reject(new Error('the server refused the request'));
    return Promise.all(prompts.map((p, j) => (p === null || nulls.has(j) ? null : one(p))));
  };
  const quiet = answerFakeModel(); // answers without recording, as the batch's own computation
  return {
    ...inner,
    capabilities: { ...inner.capabilities, batchInvariant },
    generateEach: (prompts, options) => each(prompts, (p) => quiet.generate(p, options)),
    scoreLabelsEach: (prompts, labels, signal) => each(prompts, (p) => quiet.scoreLabels(p, labels, signal)),
  };
}

const generation = (n: number, extra: PoolRecord[] = []) => inMemoryPool([...Array.from({ length: n }, (_, i) => ({ text: `note ${i}`, output: `river ${i % 3}` })), ...extra]);
const labelled = (n: number, extra: PoolRecord[] = []) => inMemoryPool([...Array.from({ length: n }, (_, i) => ({ text: `mail ${i}`, label: i % 3 ? 'spam' : 'ham' })), ...extra]);

function settings(model: LanguageModel, overrides: Partial<AnswerSettings>): AnswerSettings {
  return {
    model, pool: labelled(30), template: defaultTemplate('Classify.'), task: { kind: 'classification', labels: ['ham', 'spam'] },
    method: 'vote', ensemble: 6, shots: 2, q: 0.4, noise: null, ptrDelta: 1e-6, keywords: 3, candidates: 4, candidateTemperature: 1, maxTokens: 16,
    random: allowSeededOnPrivatePath(seededRandom(7), 'test'), ...overrides,
  };
}

const keyword = { task: { kind: 'generation' } as const, method: 'keyword' as const, pool: generation(30) };

describe('teachers answered together', () => {
  for (const [name, overrides] of [['vote', {}], ['keyword', keyword]] as const) {
    it(`${name}: one batched call per query, the same answers as one teacher at a time`, async () => {
      const batches: string[][] = [];
      const alone: string[] = [];
      const together = await answerBatch(settings(batchedFake(batches, alone), overrides), ['q one', 'q two']);
      const oneByOne = await answerBatch(settings(answerFakeModel(), overrides), ['q one', 'q two']);
      expect(together).toEqual(oneByOne);
      expect(batches).toHaveLength(2);
      expect(alone.filter((p) => p.includes('note') || p.includes('mail'))).toEqual([]); // no teacher called alone
    });
  }

  for (const [name, overrides] of [['vote', {}], ['keyword', keyword]] as const) {
    it(`${name}: a backend not batch-invariant gets one call per teacher, never two at once, the same answers`, async () => {
      const batches: string[][] = [];
      const alone: string[] = [];
      const model = batchedFake(batches, alone, new Set(), false);
      let inFlight = 0;
      let peak = 0;
      const held = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
        peak = Math.max(peak, ++inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 1));
          return await call(...args);
        } finally {
          inFlight--;
        }
      };
      const counted: LanguageModel = { ...model, generate: held(model.generate.bind(model)), scoreLabels: held(model.scoreLabels.bind(model)) };
      const oneByOne = await answerBatch(settings(counted, overrides), ['q one', 'q two']);
      expect(oneByOne).toEqual(await answerBatch(settings(answerFakeModel(), overrides), ['q one', 'q two']));
      expect(batches).toEqual([]);
      expect(alone.filter((p) => p.includes('note') || p.includes('mail')).length).toBeGreaterThan(0);
      expect(peak).toBe(1);
    });
  }

  it('a batch failing as a whole falls back to each teacher alone: only the failing one gives “no answer”', async () => {
    const batches: string[][] = [];
    const alone: string[] = [];
    const pool = labelled(30, [{ text: 'FAIL me', label: 'spam' }]);
    const s = settings(batchedFake(batches, alone), { pool, q: 1, ensemble: 5, shots: 20 });
    const { results, failedTeachers } = await answerBatch(s, ['a']);
    expect(batches).toHaveLength(1);
    expect(alone).toHaveLength(5); // each teacher alone after the failed batch
    expect(failedTeachers).toBe(1);
    expect(results[0].histogram!.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('a teacher the batch gives nothing is that teacher’s failure, the others answered', async () => {
    const s = settings(batchedFake([], [], new Set([2])), { ...keyword, pool: generation(30), q: 1, ensemble: 4, shots: 20 });
    const { failedTeachers } = await answerBatch(s, ['which river?']);
    expect(failedTeachers).toBe(1);
  });

  it('a cancelled batch is rethrown, not counted as failures', async () => {
    const controller = new AbortController();
    const model: LanguageModel = {
      ...answerFakeModel(),
      capabilities: { ...answerFakeModel().capabilities, batchInvariant: true },
      scoreLabelsEach: () => {
        controller.abort();
        return Promise.reject(new Error('cancelled'));
      },
    };
    await expect(answerBatch(settings(model, { signal: controller.signal, q: 1 }), ['a'])).rejects.toThrow(/cancelled/);
  });
});
