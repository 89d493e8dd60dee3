/**
 * The OpenAI-compatible backend against a local test server (127.0.0.1) that serves the
 * reference learner — so every answer can be checked against the learner itself —
 * uncapped, and capping logprobs at 5 (restriction through logit bias in chunks).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { callMethod } from '../../../electron/services/api';
import { OpenAiClient } from '../../../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../../../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { workspace, type Workspace } from './modelFixture';
import { startOpenAiTestServer, type TestServer } from './openaiTestServer';

const prompt =
  'Classify each e-mail as spam or ham.\n\nEmail: free money, click now\nLabel: spam\n\nEmail: patch review notes\nLabel: ham\n\nEmail: click for free money\nLabel:';

let reference: ReferenceLearner;
let open: TestServer;
let capped: TestServer;
let textKeys: TestServer;
let keyed: TestServer;

beforeAll(async () => {
  reference = await loadReferenceLearner();
  open = await startOpenAiTestServer(reference, { maxLogprobs: 100 });
  capped = await startOpenAiTestServer(reference, { maxLogprobs: 5 });
  textKeys = await startOpenAiTestServer(reference, { maxLogprobs: 5, textKeys: true });
  keyed = await startOpenAiTestServer(reference, { maxLogprobs: 5, apiKey: 'sk-test-SECRET-123' });
});
afterAll(async () => {
  await Promise.all([open, capped, textKeys, keyed].map((s) => s?.close()));
});

async function candidates(): Promise<number[]> {
  const top = await reference.topNextTokens(prompt, 5);
  return [...top.map((t) => t.token), ...(await reference.tokenize(' the money click offer now please'))].filter((t, i, a) => a.indexOf(t) === i);
}

describe.each([
  ['uncapped', () => open, 100, false],
  ['capped at 5 logprobs', () => capped, 5, false],
  ['capped at 5, logprobs keyed by token text', () => textKeys, 5, true],
])('OpenAI-compatible backend (%s)', (_name, server, maxLogprobs, keyedByText) => {
  let remote: RemoteModel;
  beforeAll(async () => {
    remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: server().baseUrl, model: 'reference', maxLogprobs }));
  });

  it('declares what a server can do', () => {
    expect(remote.info).toMatchObject({ backend: 'openai-compatible', name: 'reference', kind: 'llm', contextLength: 100000 });
    expect(remote.capabilities).toMatchObject({ tokenize: true, fullDistribution: false, restrictedDistribution: true, maxTopTokens: maxLogprobs, batchInvariant: false });
  });

  it('tokenizes through /tokenize and /detokenize', async () => {
    const text = 'Hello, free money!';
    const ids = await remote.tokenize(text);
    expect(ids).toEqual(await reference.tokenize(text));
    expect(await remote.detokenize(ids)).toBe(text);
    expect(await remote.tokenText(ids[1])).toBe(await reference.tokenText(ids[1]));
  });

  it('reads a restricted distribution equal to the model’s, one prompt per request, one at a time', async () => {
    const set = await candidates();
    expect(set.length).toBeGreaterThan(5);
    const prompts = [prompt, prompt.replace('click for free money', 'review of the patch')];
    const before = server().requests;
    const sentBefore = server().completionPrompts.length;
    server().resetPeak();
    const dists = await remote.nextTokenDistributions(prompts, { restrictTo: set });
    const chunks = maxLogprobs >= set.length ? 1 : Math.ceil((set.length - 1) / (maxLogprobs - 1));
    // One request per chunk and prompt (plus /detokenize look-ups when keys are token texts): the
    // prompts are teachers' private samples, never batched together (capabilities.batchInvariant).
    if (!keyedByText) expect(server().requests - before).toBe(chunks * prompts.length);
    expect(server().completionPrompts.slice(sentBefore).every((sent) => sent.length === 1)).toBe(true);
    expect(server().peakCompletions).toBe(1);
    for (let i = 0; i < prompts.length; i++) {
      const truth = await reference.nextTokenDistribution(prompts[i], { restrictTo: set });
      expect(dists[i].tokens).toEqual(set);
      dists[i].probs.forEach((p, j) => expect(p).toBeCloseTo(truth.probs[j], 9));
    }
    await expect(remote.nextTokenDistribution(prompt)).rejects.toThrow(/full next-token distribution/);
  });

  it('returns top next tokens, scores labels by echo, embeds and generates like the model', async () => {
    const top = await remote.topNextTokens(prompt, 3);
    const truth = await reference.topNextTokens(prompt, 3);
    expect(top.map((t) => t.token)).toEqual(truth.map((t) => t.token));
    top.forEach((t, i) => expect(t.prob).toBeCloseTo(truth[i].prob, 9));
    const labels = [' spam', ' ham', ' spamalicious offer'];
    const scores = await remote.scoreLabels(prompt, labels);
    const expected = await reference.scoreLabels(prompt, labels);
    scores.forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    const [a, b] = await remote.embed(['free money', 'patch notes']);
    const [ra] = await reference.embed(['free money']);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(Math.hypot(...b)).toBeCloseTo(1, 6);
    a.forEach((x, i) => expect(x).toBeCloseTo(ra[i], 6));
    const generated = await remote.generate('Subject: meeting', { maxTokens: 6, stop: ['\n'] });
    expect(generated.text).toBe((await reference.generate('Subject: meeting', { maxTokens: 6, stop: ['\n'] })).text);
  });
});

describe('a server with a short context', () => {
  it('gets a prompt longer than its context cut from the left (its last tokens), not a request it refuses', async () => {
    const short = await startOpenAiTestServer(reference, { maxLogprobs: 100, contextLength: 64 });
    try {
      const remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: short.baseUrl, model: 'reference' }));
      expect(remote.info.contextLength).toBe(64);
      const long = `${'Email: a routine note about the quarterly budget review.\nLabel: ham\n\n'.repeat(12)}${prompt}`;
      const ids = await reference.tokenize(long);
      expect(ids.length).toBeGreaterThan(64);
      const set = await candidates();
      const [cut, fits] = await remote.nextTokenDistributions([long, prompt.slice(-100)], { restrictTo: set });
      const truth = await reference.nextTokenDistribution(ids.slice(ids.length - 62), { restrictTo: set });
      cut.probs.forEach((p, j) => expect(p).toBeCloseTo(truth.probs[j], 9));
      const asSent = await reference.nextTokenDistribution(prompt.slice(-100), { restrictTo: set });
      fits.probs.forEach((p, j) => expect(p).toBeCloseTo(asSent.probs[j], 9));
      // The server does refuse what does not fit (so the cut is what made the call succeed).
      await expect(new OpenAiClient({ baseUrl: short.baseUrl, model: 'reference' }).post('/completions', { prompt: long, max_tokens: 1 })).rejects.toThrow(/HTTP 400: This model's maximum context length is exceeded/);
    } finally {
      await short.close();
    }
  });

  it('without /tokenize, gets such a prompt cut to a suffix that fits by its byte bound, not a request it refuses', async () => {
    const short = await startOpenAiTestServer(reference, { maxLogprobs: 100, contextLength: 64, noTokenizer: true });
    try {
      const remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: short.baseUrl, model: 'reference' }));
      expect(remote.capabilities.tokenize).toBe(false);
      const long = `Résumé — ${'Email: a routine note about the quarterly budget review.\nLabel: ham\n\n'.repeat(12)}${prompt}`;
      const set = await candidates();
      const [cut] = await remote.nextTokenDistributions([long], { restrictTo: set });
      const truth = await reference.nextTokenDistribution(long.slice(-(64 - 2 - 8)), { restrictTo: set });
      cut.probs.forEach((p, j) => expect(p).toBeCloseTo(truth.probs[j], 9));
      await expect(new OpenAiClient({ baseUrl: short.baseUrl, model: 'reference' }).post('/completions', { prompt: long, max_tokens: 1 })).rejects.toThrow(/HTTP 400: This model's maximum context length is exceeded/);
    } finally {
      await short.close();
    }
  });
});

describe('API keys', () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace('remote');
  });
  afterAll(() => ws?.remove());

  it('sends the key, never shows it in errors, status, logs or the data directory', async () => {
    await expect(callMethod(ws.ctx, 'model.useRemote', { baseUrl: keyed.baseUrl, model: 'reference', apiKey: 'sk-wrong-KEY-999' })).rejects.toThrow(
      /HTTP 401: Incorrect API key provided: Bearer \[redacted\]/,
    );
    const status = await callMethod(ws.ctx, 'model.useRemote', { baseUrl: keyed.baseUrl, model: 'reference', apiKey: 'sk-test-SECRET-123' });
    expect(keyed.authorizations.at(-1)).toBe('Bearer sk-test-SECRET-123');
    expect(status.active.backend).toBe('openai-compatible');
    expect(status.remote).toEqual({ baseUrl: keyed.baseUrl, model: 'reference', hasApiKey: true, maxLogprobs: 5 });
    expect(JSON.stringify(status)).not.toContain('SECRET');
    const service = await (await import('../../../electron/services/model/modelHandlers')).getModelService(ws.ctx);
    const remote = (await service.current()) as RemoteModel;
    expect(JSON.stringify(remote.client)).not.toContain('SECRET');
    expect((await import('node:util')).inspect(remote, { depth: 5 })).not.toContain('SECRET');
    const tried = await callMethod(ws.ctx, 'model.try', { prompt, maxTokens: 2, topK: 2 });
    expect(tried.backend).toBe('openai-compatible');
    expect((await callMethod(ws.ctx, 'app.info', {})).backend).toBe('openai-compatible');
    const files: string[] = [];
    const walk = (dir: string) => readdirSync(dir).forEach((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : files.push(join(dir, f))));
    walk(ws.ctx.dataDir);
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain('SECRET');
    expect((await callMethod(ws.ctx, 'model.unload', {})).active.backend).toBe('reference');
  });

  it('rejects URLs with credentials or other schemes and unknown models', async () => {
    await expect(callMethod(ws.ctx, 'model.useRemote', { baseUrl: 'http://user:pw@127.0.0.1:1/v1', model: 'x' })).rejects.toThrow(/API key field/);
    await expect(callMethod(ws.ctx, 'model.useRemote', { baseUrl: 'file:///etc/passwd', model: 'x' })).rejects.toThrow(/http/);
    await expect(callMethod(ws.ctx, 'model.useRemote', { baseUrl: open.baseUrl, model: 'gpt-x' })).rejects.toThrow(/does not serve model "gpt-x"/);
  });
});
