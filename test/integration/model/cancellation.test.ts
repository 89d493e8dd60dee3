/**
 * Cancelling generation with an AbortSignal — on real llama.cpp in the model host and on
 * the OpenAI-compatible backend against a local server that never answers: the call returns
 * finishReason 'cancelled' (with the text so far), the host is not restarted, and the
 * next requests answer exactly as before.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  afterAll(() => ws?.remove());

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

/**
 * A server that takes one request and never answers it: `received` settles when the
 * request has arrived (it is then in flight), `dropped` when the client closes the
 * connection. Synchronises the test on events instead of on a delay.
 */
async function startSilentServer(): Promise<{ url: string; received: Promise<void>; dropped: Promise<void>; close: () => Promise<void> }> {
  let onReceived!: () => void;
  let onDropped!: () => void;
  const received = new Promise<void>((resolve) => (onReceived = resolve));
  const dropped = new Promise<void>((resolve) => (onDropped = resolve));
  const server: Server = createServer((req, res) => {
    res.on('close', onDropped);
    req.resume(); // read the body, answer nothing
    onReceived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    dropped,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('cancelling OpenAI-compatible generation', () => {
  let reference: ReferenceLearner;
  let server: TestServer;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let remote: RemoteModel;
  /** When set, the next request goes to the silent server instead (same path). */
  let divertNext = false;
  const fetchVia: typeof fetch = (input, init) => {
    if (!divertNext) return fetch(input, init);
    divertNext = false;
    return fetch(silent.url + new URL(String(input)).pathname, init);
  };

  beforeAll(async () => {
    reference = await loadReferenceLearner();
    server = await startOpenAiTestServer(reference);
    silent = await startSilentServer();
    remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference' }, fetchVia));
  });
  afterAll(async () => {
    await silent?.close();
    await server?.close();
  });

  it('returns finishReason "cancelled" when the request is aborted in flight, and keeps working', async () => {
    // The completion request goes to a server that never answers: the call can only come
    // back because the abort ended it (else the test times out), and it must hang up on the server.
    divertNext = true;
    const inFlight = new AbortController();
    const pending = remote.generate('Subject: meeting', { maxTokens: 6, signal: inFlight.signal });
    await silent.received;
    inFlight.abort();
    expect(await pending).toEqual({ text: '', tokens: [], finishReason: 'cancelled' });
    await silent.dropped;

    const before = server.requests;
    const controller = new AbortController();
    controller.abort();
    expect((await remote.generate('Subject: meeting', { maxTokens: 6, signal: controller.signal })).finishReason).toBe('cancelled');
    expect(server.requests).toBe(before);

    const whole = await remote.generate('Subject: meeting', { maxTokens: 6, stop: ['\n'] });
    expect(whole.text).toBe((await reference.generate('Subject: meeting', { maxTokens: 6, stop: ['\n'] })).text);
    expect(whole.finishReason).not.toBe('cancelled');
  }, 20_000);
});
