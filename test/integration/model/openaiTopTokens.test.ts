/**
 * The public top tokens on an OpenAI-compatible server: the texts of tokens not seen before are
 * asked from /detokenize together, in one round trip (counted by the simulation's client fetch),
 * not one after another — a synthesis step paid one latency per new candidate token.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { OpenAiClient } from '../../../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../../../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { startOpenAiTestServer, type TestServer } from './openaiTestServer';
import { countsSince, SimulatedGpu } from './simulatedGpu';

let reference: ReferenceLearner;
let server: TestServer;
const gpu = new SimulatedGpu({ requestSeconds: 0.01, prefillSecondsPerToken: 0.0002, decodeSecondsPerToken: 0.02 });

beforeAll(async () => {
  reference = await loadReferenceLearner();
  server = await startOpenAiTestServer(reference, { maxLogprobs: 20, gpu });
}, 60_000);
afterAll(() => server?.close());

it('new token texts cost one round trip together; the tokens and texts are the learner’s own', async () => {
  const remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference' }, gpu.clientFetch()));
  const prompt = 'Write an e-mail of the given class.\n\nLabel: spam\nText: Dear friend, you have';
  const before = gpu.counts;
  const top = await remote.topNextTokens(prompt, 20);
  const used = countsSince(gpu.counts, before);
  expect(top).toHaveLength(20);
  const expected = await reference.topNextTokens(prompt, 20);
  expect(top.map((t) => t.token)).toEqual(expected.map((t) => t.token));
  expect(top.map((t) => t.text)).toEqual(await Promise.all(expected.map((t) => reference.tokenText(t.token))));
  expect(used.requests).toBe(21); // the completion and one /detokenize per token
  expect(used.roundTrips).toBe(2); // one after another: 21
  const again = gpu.counts;
  await remote.topNextTokens(prompt, 20);
  expect(countsSince(gpu.counts, again).requests).toBe(1); // texts are kept
}, 60_000);
