/**
 * Label scores on an OpenAI-compatible server priced as a prefix-caching server (simulatedGpu.ts):
 * a label that is one token after the prompt is read from a completion of the prompt alone
 * (its top logprobs), which the server's prefix cache serves; only the other labels are echoed,
 * and an echoed prompt is prefilled whole (vLLM reads no cache for prompt logprobs). The scores
 * are the reference learner's own, whichever way they were read. Before, every label was echoed:
 * a vote teacher cost L prefills of its prompt. A single-token label outside the top logprobs is
 * read relative to the top token, from a second completion with equal logit biases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPrompt, answerQuery } from '../../../core/icl/answering/answerQuery';
import type { PoolRecord } from '../../../core/icl/privatePool';
import { defaultTemplate } from '../../../core/icl/prompts';
import type { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import { OpenAiClient } from '../../../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../../../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { startOpenAiTestServer, type TestServer, type TestServerOptions } from './openaiTestServer';
import { countsSince, SimulatedGpu } from './simulatedGpu';

const template = defaultTemplate('Classify each e-mail as spam or ham.');
const task = { kind: 'classification', labels: ['spam', 'ham'] } as const;
const prompt = answerPrompt(template, task, [{ text: 'free money, click now', label: 'spam' }, { text: 'patch review notes', label: 'ham' }], 'click for free money');
const LABELS = [' spam', ' ham'];

let reference: ReferenceLearner;
const servers: TestServer[] = [];

async function remoteOn(options: TestServerOptions) {
  const gpu = new SimulatedGpu({ requestSeconds: 0.01, prefillSecondsPerToken: 0.0002, decodeSecondsPerToken: 0.02 });
  const server = await startOpenAiTestServer(reference, { ...options, gpu });
  servers.push(server);
  return { gpu, server, remote: await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference', maxLogprobs: options.maxLogprobs }, gpu.clientFetch())) };
}

beforeAll(async () => {
  reference = await loadReferenceLearner();
}, 60_000);
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('label scores on a prefix-caching server', () => {
  it('single-token labels among the top logprobs: one completion of the prompt alone, read from the cache the second time', async () => {
    const { gpu, server, remote } = await remoteOn({ maxLogprobs: 100 });
    const promptTokens = (await reference.tokenize(prompt)).length;
    const expected = await reference.scoreLabels(prompt, LABELS);
    const before = gpu.counts;
    const from = server.completionPrompts.length;
    const scores = await remote.scoreLabels(prompt, LABELS);
    scores.forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    expect(server.completionPrompts.slice(from)).toEqual([[prompt]]); // the echo path sent [prompt + ' spam', prompt + ' ham']
    const first = countsSince(gpu.counts, before);
    expect(first.prefilledTokens).toBe(promptTokens); // echoing both labels: 2 × (promptTokens + 1)
    await remote.scoreLabels(prompt, LABELS);
    expect(countsSince(gpu.counts, before).prefilledTokens - first.prefilledTokens).toBeLessThanOrEqual(16); // the last, partial block
  }, 60_000);

  it('a single-token label outside the top logprobs is read relative to the top token; a label of several tokens is echoed; the scores stay exact', async () => {
    const { server, remote } = await remoteOn({ maxLogprobs: 2 });
    const base = await reference.tokenize(prompt);
    const oneMore = async (label: string) => (await reference.tokenize(prompt + label)).length === base.length + 1;
    const ranked = await reference.topNextTokens(prompt, 12);
    const outside = ranked.slice(2).find((t) => t.special === undefined);
    expect(outside && (await oneMore(outside.text))).toBe(true);
    const single = [ranked[0].text, outside!.text];
    const expectedSingle = await reference.scoreLabels(prompt, single);
    const from = server.completionPrompts.length;
    (await remote.scoreLabels(prompt, single)).forEach((s, i) => expect(s).toBeCloseTo(expectedSingle[i], 9));
    // The prompt alone, twice (top logprobs, then the biased pair): nothing echoed.
    expect(server.completionPrompts.slice(from)).toEqual([[prompt], [prompt]]);

    const labels = [...single, ' free money'];
    expect((await reference.tokenize(' free money')).length).toBeGreaterThan(1);
    const expected = await reference.scoreLabels(prompt, labels);
    const fromSeveral = server.completionPrompts.length;
    (await remote.scoreLabels(prompt, labels)).forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    expect(server.completionPrompts.slice(fromSeveral)).toEqual([labels.map((l) => prompt + l)]); // as before
  }, 60_000);

  it('logprobs keyed by token text: the same exact scores', async () => {
    const { server, remote } = await remoteOn({ maxLogprobs: 100, textKeys: true });
    const expected = await reference.scoreLabels(prompt, LABELS);
    const from = server.completionPrompts.length;
    (await remote.scoreLabels(prompt, LABELS)).forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    expect(server.completionPrompts.slice(from).flat().every((p) => p === prompt)).toBe(true); // nothing echoed
  }, 60_000);

  it('a vote query prefills each teacher prompt at most once', async () => {
    const { gpu, server, remote } = await remoteOn({ maxLogprobs: 20 });
    const texts = ['free money offer, click now', 'patch review for the build', 'cheap pills online today', 'meeting notes from monday'];
    const groups = texts.map((text, i): PoolRecord[] => [{ text, label: i % 2 ? 'ham' : 'spam' }]);
    const query = 'win a free prize now';
    const teacherTokens = await Promise.all(groups.map(async (records) => (await reference.tokenize(answerPrompt(template, task, records, query))).length));
    const before = gpu.counts;
    const from = server.completionPrompts.length;
    const { result, failures } = await answerQuery({
      model: remote, pool: { units: texts.length, sampleTeachers: async () => groups }, template, task, method: 'vote', ensemble: texts.length, shots: 1, q: 1,
      noise: null, ptrDelta: 1e-6, keywords: 3, candidates: 2, candidateTemperature: 1, maxTokens: 4, random: cryptoRandom,
    }, query);
    expect(failures).toBe(0);
    expect(result.histogram!.reduce((a, b) => a + b, 0)).toBe(texts.length);
    const used = countsSince(gpu.counts, before);
    const sent = server.completionPrompts.slice(from).flat();
    expect(sent.every((p) => typeof p === 'string' && p.endsWith('Label:'))).toBe(true); // no prompt + label echoed
    // Each teacher's prompt prefilled once, plus at most its last partial block again for a label
    // read relative to the top token (echoing both labels: twice each, whole).
    expect(used.prefilledTokens).toBeLessThanOrEqual(teacherTokens.reduce((a, b) => a + b + 15, 0));
  }, 60_000);
});
