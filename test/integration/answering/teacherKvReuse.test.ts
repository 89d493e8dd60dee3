/**
 * Answering teachers on real llama.cpp (generated tiny GGUF) decode with KV reuse: teacher j
 * in sequence j, its prompt prefilled once, then one token of every teacher per decode. The
 * host's token counter shows each prompt evaluated once per query (not once per generated
 * token, not once per label), and the answers are those of the old path — each teacher
 * evaluated alone with `generate` / `scoreLabels` — for greedy decoding and the non-private
 * (zero-noise) ensemble.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPrompt, answerQuery, type AnswerSettings } from '../../../core/icl/answering/answerQuery';
import { inMemoryPool, type PoolRecord, type PrivatePool } from '../../../core/icl/privatePool';
import { defaultTemplate } from '../../../core/icl/prompts';
import type { LanguageModel } from '../../../core/model/languageModel';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import type { LlamaModel } from '../../../electron/services/model/llamaModel';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import { workspace, type Workspace } from '../model/modelFixture';

let ws: Workspace;
let model: LlamaModel;
const TEACHERS = 4;
const template = defaultTemplate('Answer each text as in the examples.');
const prompts = [
  answerPrompt(template, { kind: 'generation' }, [{ text: 'free money offer', output: 'click the list' }], 'which river?'),
  null, // a teacher without records
  answerPrompt(template, { kind: 'generation' }, [{ text: 'meeting at noon', output: 'the people of the world' }, { text: 'thanks', output: 'good day' }], 'which river?'),
  answerPrompt(template, { kind: 'generation' }, [{ text: 'please see the message below', output: 'the mail' }], 'which river?'),
];

beforeAll(async () => {
  ws = workspace('answer-kv');
  const job = await ws.load(ws.gguf('tiny.gguf', { seed: 5 }), { threads: 1, sequences: TEACHERS, contextSize: 512 });
  expect(job.status).toBe('succeeded');
  model = (await (await getModelService(ws.ctx)).current()) as LlamaModel;
}, 120_000);
afterAll(async () => ws?.remove());

/** The model without its batched teacher calls: every teacher evaluated alone (the path before KV reuse). */
const alone = (m: LanguageModel): LanguageModel =>
  new Proxy(m, { get: (target, key) => (key === 'generateEach' || key === 'scoreLabelsEach' ? undefined : Reflect.get(target, key)) });

const evaluatedSince = async (before: number) => (await model.counters()).evaluatedTokens - before;
/** Prompt tokens as the host evaluates them (BOS prepended). */
const promptTokens = async (prompt: string) => (await model.tokenize(prompt)).length + 1;

describe('answering teachers with KV reuse (llama.cpp)', () => {
  it('generateEach gives every prompt what generate gives it alone (greedy), and null for an empty teacher', async () => {
    const options = { maxTokens: 12, temperature: 0, stop: ['\n'] };
    const together = await model.generateEach(prompts, options);
    const oneByOne = await Promise.all(prompts.map((p) => (p === null ? null : model.generate(p, options))));
    expect(together[1]).toBeNull();
    expect(together).toEqual(oneByOne);
    expect(together.some((g) => g !== null && g.tokens.length > 0)).toBe(true);
  }, 120_000);

  it('prefills each teacher prompt once, then decodes one row per teacher per step (empty teachers padded)', async () => {
    const maxTokens = 10;
    const before = (await model.counters()).evaluatedTokens;
    const generations = await model.generateEach(prompts, { maxTokens, temperature: 0 }); // no stop: up to maxTokens each
    const evaluated = await evaluatedSince(before);
    const prefilled = (await Promise.all(prompts.map((p) => (p === null ? 1 : promptTokens(p))))).reduce((a, n) => a + n - 1, 0);
    const decoded = evaluated - prefilled;
    expect(decoded % TEACHERS).toBe(0); // every decode holds one row per teacher: a public count
    const steps = decoded / TEACHERS;
    expect(steps).toBeGreaterThanOrEqual(Math.max(...generations.map((g) => g?.tokens.length ?? 0)));
    expect(steps).toBeLessThanOrEqual(maxTokens);
    // The old cost of re-prefilling every prompt for every generated token would be at least this:
    expect(evaluated).toBeLessThan(prefilled * 2);
  }, 120_000);

  it('scoreLabelsEach prefills each prompt once (not once per label) and scores as scoreLabels alone', async () => {
    const labels = [' spam', ' ham', ' free money offer'];
    const classify = prompts.map((p) => p && `${p} ham\nLabel:`);
    const before = (await model.counters()).evaluatedTokens;
    const together = await model.scoreLabelsEach(classify, labels);
    const evaluated = await evaluatedSince(before);
    const promptSum = (await Promise.all(classify.map((p) => (p === null ? 1 : promptTokens(p))))).reduce((a, n) => a + n, 0);
    const labelTokens = (await Promise.all(labels.map((l) => model.tokenize(l)))).reduce((a, t) => a + t.length, 0);
    expect(evaluated).toBeLessThanOrEqual(promptSum + TEACHERS * labelTokens);
    expect(evaluated).toBeLessThan(2 * promptSum); // three labels used to cost three prefills of every prompt

    expect(together[1]).toBeNull();
    for (const [j, p] of classify.entries()) {
      if (p === null) continue;
      const single = await model.scoreLabels(p, labels);
      // llama.cpp's float32 sums differ between batch shapes (measured: up to 3e-5 relative); the arg-max is the same.
      together[j]!.forEach((score, l) => expect(Math.abs(score - single[l])).toBeLessThanOrEqual(1e-4 * Math.abs(single[l])));
      expect(together[j]!.indexOf(Math.max(...together[j]!))).toBe(single.indexOf(Math.max(...single)));
    }
  }, 120_000);

  // Records as long as short e-mails: the part of a prompt that differs between teachers dominates it.
  it('a teacher’s answer and label scores depend on its own prompt only: bit for bit the same whatever the other teachers hold', async () => {
    const others = [null, prompts[2], prompts[0], null];
    const mixed = prompts.map((p, j) => (j === 0 ? p : others[j]));
    const options = { maxTokens: 10, temperature: 0 };
    expect((await model.generateEach(mixed, options))[0]).toEqual((await model.generateEach(prompts, options))[0]);
    const labels = [' spam', ' ham'];
    const classify = (list: readonly (string | null)[]) => list.map((p) => p && `${p} ham\nLabel:`);
    const [alone] = await model.scoreLabelsEach(classify(mixed), labels);
    const [among] = await model.scoreLabelsEach(classify(prompts), labels);
    expect(alone).toEqual(among); // exact: every decode held the same number of rows
  }, 120_000);

  const records: PoolRecord[] = Array.from({ length: 12 }, (_, i) => ({ text: `note ${i} about the river: ${'the people of the world came to see the old mail list. '.repeat(3)}`, output: `the river ${i}`, label: i % 3 ? 'spam' : 'ham' }));
  /** The same draw of teachers for both paths (the pool's sample depends only on the seed). */
  const settings = (m: LanguageModel, method: AnswerSettings['method'], pool: PrivatePool): AnswerSettings => ({
    model: m, method, noise: null, pool, template, task: method === 'vote' ? { kind: 'classification', labels: ['spam', 'ham'] } : { kind: 'generation' },
    ensemble: TEACHERS, shots: 2, q: 0.6, ptrDelta: 1e-6, keywords: 3, candidates: 3, candidateTemperature: 1, maxTokens: 8,
    random: allowSeededOnPrivatePath(seededRandom(11), 'test'),
  });

  it('with zero noise every aggregation releases what the old path (each teacher alone) releases; vote prefills less', async () => {
    for (const method of ['vote', 'embedding', 'keyword', 'ptr'] as const) {
      const pool = inMemoryPool(records);
      let before = (await model.counters()).evaluatedTokens;
      const reused = await answerQuery(settings(model, method, pool), 'which river crosses the town?');
      const reusedTokens = await evaluatedSince(before);
      before = (await model.counters()).evaluatedTokens;
      const old = await answerQuery(settings(alone(model), method, pool), 'which river crosses the town?');
      const oldTokens = await evaluatedSince(before);
      expect(reused, method).toEqual(old);
      expect(reused.failures).toBe(0);
      if (method === 'vote') expect(reusedTokens).toBeLessThan(oldTokens); // two labels: each prompt was prefilled twice
    }
  }, 300_000);
});
