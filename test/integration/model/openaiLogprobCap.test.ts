/**
 * The OpenAI-compatible backend finds a server's logprob cap instead of failing: at
 * connect (a server answering HTTP 400 "at most 5", or silently returning fewer), and
 * later when a server refuses or shortens a reply — and the restricted distributions stay
 * exactly the reference learner's. Also `veil model try --max-logprobs N`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { callMethod } from '../../../electron/services/api';
import { OpenAiClient, type RemoteConfig } from '../../../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../../../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { runCliCaptured } from './cliHarness';
import { workspace, type Workspace } from './modelFixture';
import { startOpenAiTestServer, type TestServer } from './openaiTestServer';

const prompt = 'Classify each e-mail as spam or ham.\n\nEmail: free money, click now\nLabel: spam\n\nEmail: patch review notes\nLabel: ham\n\nEmail: click for free money\nLabel:';

let reference: ReferenceLearner;
let servers: TestServer[] = [];
let set: number[];

async function server(options: Parameters<typeof startOpenAiTestServer>[1]): Promise<TestServer> {
  const started = await startOpenAiTestServer(reference, options);
  servers.push(started);
  return started;
}

const connect = (s: TestServer, config: Partial<RemoteConfig> = {}) => RemoteModel.connect(new OpenAiClient({ baseUrl: s.baseUrl, model: 'reference', ...config }));

async function expectReferenceDistribution(remote: RemoteModel): Promise<void> {
  const [dist] = await remote.nextTokenDistributions([prompt], { restrictTo: set });
  const truth = await reference.nextTokenDistribution(prompt, { restrictTo: set });
  expect(dist.tokens).toEqual(set);
  dist.probs.forEach((p, j) => expect(p).toBeCloseTo(truth.probs[j], 9));
}

beforeAll(async () => {
  reference = await loadReferenceLearner();
  const top = await reference.topNextTokens(prompt, 5);
  set = [...top.map((t) => t.token), ...(await reference.tokenize(' the money click offer now please thanks'))].filter((t, i, a) => a.indexOf(t) === i);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('logprob cap detection', () => {
  it('probes the cap at connect from an HTTP 400, whatever cap was configured', async () => {
    const capped = await server({ maxLogprobs: 5 });
    for (const config of [{}, { maxLogprobs: 50 }]) {
      const remote = await connect(capped, config);
      expect(remote.client.maxLogprobs).toBe(5);
      expect(remote.capabilities.maxTopTokens).toBe(5);
      await expectReferenceDistribution(remote);
    }
    const smaller = await connect(capped, { maxLogprobs: 3 });
    expect(smaller.client.maxLogprobs).toBe(3);
    await expectReferenceDistribution(smaller);
  });

  it('detects a server that silently returns fewer logprobs than asked', async () => {
    const silent = await server({ maxLogprobs: 7, silentCap: true });
    const remote = await connect(silent);
    expect(remote.capabilities.maxTopTokens).toBe(7);
    await expectReferenceDistribution(remote);
  });

  it('lowers the cap when a connected server starts refusing or shortening replies', async () => {
    const changing = await server({ maxLogprobs: 100 });
    const remote = await connect(changing);
    expect(remote.client.maxLogprobs).toBe(20);
    changing.limitLogprobs(4);
    await expectReferenceDistribution(remote);
    expect(remote.client.maxLogprobs).toBe(4);
    expect((await remote.topNextTokens(prompt, 10)).length).toBe(4);

    const shortening = await server({ maxLogprobs: 100, silentCap: true });
    const quiet = await connect(shortening);
    shortening.limitLogprobs(6);
    await expectReferenceDistribution(quiet);
    expect(quiet.client.maxLogprobs).toBe(6);
  });

  it('shows the detected cap in the model status', async () => {
    const capped = await server({ maxLogprobs: 5 });
    const ws: Workspace = workspace('logprob-cap');
    try {
      const status = await callMethod(ws.ctx, 'model.useRemote', { baseUrl: capped.baseUrl, model: 'reference' });
      expect(status.remote?.maxLogprobs).toBe(5);
      expect(status.active.capabilities.maxTopTokens).toBe(5);
    } finally {
      await ws.remove();
    }
  });

  it('veil model try --max-logprobs N asks for at most N', async () => {
    const capped = await server({ maxLogprobs: 5 });
    const ws: Workspace = workspace('logprob-cli');
    try {
      const args = ['model', 'try', '--model', capped.baseUrl, '--prompt', prompt, '--max-tokens', '1', '--top', '10', '--data-dir', ws.ctx.dataDir, '--json'];
      const detected = await runCliCaptured(...args);
      expect(detected.code).toBe(0);
      expect(JSON.parse(detected.stdout).topTokens).toHaveLength(5);
      const limited = await runCliCaptured(...args, '--max-logprobs', '3');
      expect(JSON.parse(limited.stdout).topTokens).toHaveLength(3);
      const bad = await runCliCaptured(...args, '--max-logprobs', 'many');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--max-logprobs must be a number/);
    } finally {
      await ws.remove();
    }
  });
});
