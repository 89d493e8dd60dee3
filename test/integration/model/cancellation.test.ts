/**
 * Cancelling generation with an AbortSignal — on real llama.cpp in the model host and on
 * the OpenAI-compatible backend against a slow local test server: the call returns
 * finishReason 'cancelled' (with the text so far), the host is not restarted, and the
 * next requests answer exactly as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel } from '../../../core/model/languageModel';
import type { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { callMethod } from '../../../electron/services/api';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import { OpenAiClient } from '../../../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../../../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { workspace, type Workspace } from './modelFixture';
import { startOpenAiTestServer, type TestServer } from './openaiTestServer';

const prompt = 'The quick brown fox jumps over the lazy dog. Email: free money';
const abortAfter = (ms: number) => AbortSignal.timeout(ms);

describe('cancelling llama.cpp generation', () => {
  let ws: Workspace;
  let model: LanguageModel;
  const MAX = 400;

  beforeAll(async () => {
    ws = workspace('cancel');
    // Four 128-wide blocks, a seed whose greedy text runs 400 tokens without EOS: ~0.5 s, far longer than the abort delays.
    const job = await ws.load(ws.gguf('cancel.gguf', { seed: 2, embeddingLength: 128, blockCount: 4 }), { threads: 1, sequences: 2, contextSize: 512 });
    expect(job.status).toBe('succeeded');
    model = await (await getModelService(ws.ctx)).current();
  });
  afterAll(() => ws?.dispose());

  it('stops mid-generation with the greedy text so far, and the model answers as before afterwards', async () => {
    const full = await model.generate(prompt, { maxTokens: MAX });
    expect(full.tokens).toHaveLength(MAX);
    const { pid } = (await callMethod(ws.ctx, 'model.status', {})).host;

    const cut = await model.generate(prompt, { maxTokens: MAX, signal: abortAfter(40) });
    expect(cut.finishReason).toBe('cancelled');
    expect(cut.tokens.length).toBeLessThan(MAX);
    expect(cut.tokens).toEqual(full.tokens.slice(0, cut.tokens.length));
    expect(cut.text).toBe(await model.detokenize(cut.tokens));

    expect(await model.generate(prompt, { maxTokens: MAX })).toEqual(full);
    const status = await callMethod(ws.ctx, 'model.status', {});
    expect(status.host).toMatchObject({ running: true, pid, restarts: 0, lastCrash: null });
    expect(status.active.backend).toBe('llama.cpp');
  });

  it('cancels a generation still queued behind another, and one cancelled before it starts', async () => {
    const first = model.generate(prompt, { maxTokens: MAX });
    const queued = await model.generate('hello', { maxTokens: MAX, signal: abortAfter(20) });
    expect(queued).toEqual({ text: '', tokens: [], finishReason: 'cancelled' });
    expect((await first).finishReason).toBe('length');
    const controller = new AbortController();
    controller.abort();
    expect(await model.generate(prompt, { maxTokens: 5, signal: controller.signal })).toEqual({ text: '', tokens: [], finishReason: 'cancelled' });
    expect((await callMethod(ws.ctx, 'model.try', { prompt, maxTokens: 3 })).backend).toBe('llama.cpp');
  });
});

describe('cancelling OpenAI-compatible generation', () => {
  let reference: ReferenceLearner;
  let slow: TestServer;
  let remote: RemoteModel;

  beforeAll(async () => {
    reference = await loadReferenceLearner();
    slow = await startOpenAiTestServer(reference, { delayMs: 400 });
    remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: slow.baseUrl, model: 'reference' }));
  });
  afterAll(() => slow?.close());

  it('returns finishReason "cancelled" when the request is aborted, and keeps working', async () => {
    const started = performance.now();
    const cut = await remote.generate('Subject: meeting', { maxTokens: 6, signal: abortAfter(50) });
    expect(cut).toEqual({ text: '', tokens: [], finishReason: 'cancelled' });
    expect(performance.now() - started).toBeLessThan(350);

    const before = slow.requests;
    const controller = new AbortController();
    controller.abort();
    expect((await remote.generate('Subject: meeting', { maxTokens: 6, signal: controller.signal })).finishReason).toBe('cancelled');
    expect(slow.requests).toBe(before);

    const whole = await remote.generate('Subject: meeting', { maxTokens: 6, stop: ['\n'] });
    expect(whole.text).toBe((await reference.generate('Subject: meeting', { maxTokens: 6, stop: ['\n'] })).text);
    expect(whole.finishReason).not.toBe('cancelled');
  });
});
