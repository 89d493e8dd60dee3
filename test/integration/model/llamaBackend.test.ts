/**
 * The llama.cpp backend on real llama.cpp (node-llama-cpp, CPU) with a generated tiny
 * GGUF (F32; and Q8_0 against F32), running in the model host child process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel } from '../../../core/model/languageModel';
import { seededRandom } from '../../../core/random/seededRandom';
import { callMethod } from '../../../electron/services/api';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import { workspace, type Workspace } from './modelFixture';

let ws: Workspace;
let model: LanguageModel;
const prompt = 'The quick brown fox jumps over the lazy dog. Email: free money';

beforeAll(async () => {
  ws = workspace('llama');
  const job = await ws.load(ws.gguf('tiny.gguf', { seed: 5 }), { threads: 1, sequences: 4, contextSize: 512 });
  expect(job.status).toBe('succeeded');
  model = await (await getModelService(ws.ctx)).current();
});
afterAll(() => ws?.remove());

describe('llama.cpp backend', () => {
  it('is the active backend, with metadata and hardware', async () => {
    const status = await callMethod(ws.ctx, 'model.status', {});
    expect(status.active).toMatchObject({ backend: 'llama.cpp', kind: 'llm', vocabularySize: 734, contextLength: 512 });
    expect(status.gguf?.metadata).toMatchObject({ architecture: 'llama', quantisation: 'F32', vocabularySize: 734 });
    expect(status.gguf?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(status.gguf).toMatchObject({ sequences: 4, threads: 1 });
    expect(status.hardware.modelHost).toMatchObject({ backend: 'cpu', threads: 1 });
    expect(status.hardware.modelHost?.modelBytes).toBeGreaterThan(0);
    expect(status.host.running).toBe(true);
    expect((await callMethod(ws.ctx, 'app.info', {})).backend).toBe('llama.cpp');
  });

  it('round-trips tokenize / detokenize', async () => {
    for (const text of ['Hello world', 'naïve café — 東京 😀', ' leading space', 'a\nb\tc']) {
      expect(await model.detokenize(await model.tokenize(text))).toBe(text);
    }
    expect(await model.tokenText((await model.tokenize(' the'))[1] ?? -1)).toBe(' the');
  });

  it('gives a full next-token distribution that sums to 1 over the whole vocabulary', async () => {
    const { probs, tokens } = await model.nextTokenDistribution(prompt);
    expect(tokens).toBeUndefined();
    expect(probs.length).toBe(734);
    expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });

  it('marks special tokens among the top tokens from the vocabulary types: </s> ends a text, <s> and <unk> are control', async () => {
    const top = await model.topNextTokens(prompt, 734);
    const byText = new Map(top.map((t) => [t.text, t.special]));
    expect([byText.get('</s>'), byText.get('<s>'), byText.get('<unk>')]).toEqual(['end', 'control', 'control']);
    expect(top.filter((t) => t.special).length).toBe(3);
  });

  it('renormalises a restricted distribution over exactly the requested set', async () => {
    const set = [5, 300, 356, 700, 42];
    const full = (await model.nextTokenDistribution(prompt)).probs;
    const r = await model.nextTokenDistribution(prompt, { restrictTo: set });
    expect(r.tokens).toEqual(set);
    expect(r.probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const mass = set.reduce((a, t) => a + full[t], 0);
    set.forEach((t, i) => expect(r.probs[i]).toBeCloseTo(full[t] / mass, 6));
    await expect(model.nextTokenDistribution(prompt, { restrictTo: [734] })).rejects.toThrow(/not in the vocabulary/);
  });

  it('evaluates a batch (more prompts than sequences) like one prompt at a time', async () => {
    const prompts = Array.from({ length: 6 }, (_, i) => `${prompt} number ${i} ${'x'.repeat(i * 7)}`);
    const batch = await model.nextTokenDistributions(prompts);
    const restricted = await model.nextTokenDistributions(prompts, { restrictTo: [300, 356] });
    for (let i = 0; i < prompts.length; i++) {
      const single = (await model.nextTokenDistribution(prompts[i])).probs;
      for (let t = 0; t < single.length; t++) expect(batch[i].probs[t]).toBeCloseTo(single[t], 5);
      const r = (await model.nextTokenDistribution(prompts[i], { restrictTo: [300, 356] })).probs;
      expect(restricted[i].probs[0]).toBeCloseTo(r[0], 5);
    }
  });

  it('cuts a prompt longer than the context from the left (BOS kept) instead of failing', async () => {
    const words = Array.from({ length: 800 }, (_, i) => ['alpha', 'beta', 'gamma', 'delta', 'money', 'dog'][(i * 7) % 6] + (i % 10)).join(' ');
    const tokens = await model.tokenize(words);
    expect(tokens.length).toBeGreaterThan(512);
    const [long] = await model.nextTokenDistributions([words]);
    const tail = (await model.nextTokenDistribution(tokens.slice(tokens.length - 511))).probs;
    const gap = (probs: Float64Array | number[]) => Math.max(...Array.from(probs, (p, t) => Math.abs(p - tail[t])));
    // The kept window: BOS + the last 511 tokens (measured gap ≈ 2e-5, batching order); one
    // token fewer already moves the distribution by ≈ 3e-2.
    expect(gap(long.probs)).toBeLessThan(1e-3);
    expect(gap((await model.nextTokenDistribution(tokens.slice(tokens.length - 510))).probs)).toBeGreaterThan(1e-3);
  });

  it('generates greedily and deterministically; honours stop strings and seeded sampling', async () => {
    const a = await model.generate(prompt, { maxTokens: 12 });
    const b = await model.generate(prompt, { maxTokens: 12 });
    expect(a.tokens).toHaveLength(12);
    expect(b).toEqual(a);
    expect(a.finishReason).toBe('length');
    const cut = a.text.slice(3, 5);
    if (cut.length === 2) {
      const stopped = await model.generate(prompt, { maxTokens: 12, stop: [cut] });
      expect(stopped.finishReason).toBe('stop');
      expect(stopped.text).toBe(a.text.slice(0, a.text.indexOf(cut)));
    }
    const s1 = await model.generate(prompt, { maxTokens: 8, temperature: 1, random: seededRandom(3) });
    const s2 = await model.generate(prompt, { maxTokens: 8, temperature: 1, random: seededRandom(3) });
    expect(s1).toEqual(s2);
  });

  it('scores labels as summed token log-probabilities', async () => {
    const labels = [' spam', ' ham', ' xyzzy'];
    const scores = await model.scoreLabels(prompt, labels);
    const promptTokens = await model.tokenize(prompt);
    for (let i = 0; i < labels.length; i++) {
      const whole = await model.tokenize(prompt + labels[i]);
      const cont = whole.slice(promptTokens.length);
      let chain = 0;
      for (let j = 0; j < cont.length; j++) chain += Math.log((await model.nextTokenDistribution([...promptTokens, ...cont.slice(0, j)])).probs[cont[j]]);
      // float32 logits computed in decodes of different row counts (measured: up to 4e-5 relative on ' xyzzy', −64.6)
      expect(Math.abs(scores[i] - chain)).toBeLessThan(1e-4 * Math.max(1, Math.abs(chain)));
    }
  });

  it('returns unit-norm embeddings', async () => {
    const vectors = await model.embed(['hello world', 'free money now', '']);
    for (const v of vectors) {
      expect(v.length).toBe(64);
      expect(Math.sqrt(v.reduce((s, x) => s + x * x, 0))).toBeCloseTo(1, 5);
    }
  });

  it('embeds each text as alone, whatever the texts embedded with it (augmentation batches private texts)', async () => {
    expect(model.capabilities.batchInvariant).toBe(true); // what lets augmentation batch them
    const texts = ['hello world', 'free money now', 'the river crosses the town'];
    const together = await model.embed(texts);
    const bits = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    for (const [i, text] of texts.entries()) expect(bits(together[i]).equals(bits((await model.embed([text]))[0]))).toBe(true);
  });

  it('tries a prompt through the API and unloads on demand', async () => {
    const tried = await callMethod(ws.ctx, 'model.try', { prompt, maxTokens: 4, topK: 3 });
    expect(tried).toMatchObject({ backend: 'llama.cpp' });
    expect(tried.topTokens).toHaveLength(3);
    expect(tried.topTokens[0].prob).toBeGreaterThanOrEqual(tried.topTokens[1].prob);
    const status = await callMethod(ws.ctx, 'model.unload', {});
    expect(status.active.backend).toBe('reference');
    expect(status.host.running).toBe(false);
    await expect(model.tokenize('x')).rejects.toThrow(/unloaded/);
  });

  it('loads a Q8_0 GGUF whose next-token distribution stays close to the F32 model’s', async () => {
    const next = async (weights: 'F32' | 'Q8_0') => {
      const job = await ws.load(ws.gguf(`tiny-${weights}.gguf`, { seed: 5, weights }), { threads: 1, sequences: 1, contextSize: 256 });
      expect(job.status).toBe('succeeded');
      const status = await callMethod(ws.ctx, 'model.status', {});
      expect(status.gguf?.metadata.quantisation).toBe(weights);
      const loaded = await (await getModelService(ws.ctx)).current();
      return { probs: (await loaded.nextTokenDistribution(prompt)).probs, modelBytes: status.hardware.modelHost!.modelBytes! };
    };
    const q8 = await next('Q8_0');
    const f32 = await next('F32');
    expect(q8.probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const totalVariation = q8.probs.reduce((a, p, t) => a + Math.abs(p - f32.probs[t]), 0) / 2;
    expect(totalVariation).toBeLessThan(0.05);
    expect(q8.probs.indexOf(Math.max(...q8.probs))).toBe(f32.probs.indexOf(Math.max(...f32.probs)));
    expect(q8.modelBytes).toBeLessThan(f32.modelBytes / 3);
  });
});
