/**
 * Label scores on an OpenAI-compatible server priced as a prefix-caching server (simulatedGpu.ts):
 * a label that is one token after the prompt is read from a completion of the prompt alone
 * (its top logprobs, keyed by token id), which the server's prefix cache serves; only the other
 * labels are echoed, and an echoed prompt is prefilled whole (vLLM reads no cache for prompt
 * logprobs). The scores are the reference learner's own, whichever way they were read. Before,
 * every label was echoed: a vote teacher cost L prefills of its prompt.
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

interface Sent {
  prompt: unknown;
  body: Record<string, unknown>;
}

const template = defaultTemplate('Classify each e-mail as spam or ham.');
const task = { kind: 'classification', labels: ['spam', 'ham'] } as const;
const prompt = answerPrompt(template, task, [{ text: 'free money, click now', label: 'spam' }, { text: 'patch review notes', label: 'ham' }], 'click for free money');
const LABELS = [' spam', ' ham'];

let reference: ReferenceLearner;
const servers: TestServer[] = [];

/**
 * A remote model on a fresh fake server; `sent` lists the completion requests the client made
 * after connecting. `refuseAfter`: the client's completion requests after that many are answered
 * HTTP 400 (a content filter) before they reach the server.
 */
async function remoteOn(options: TestServerOptions, refuseAfter = Infinity) {
  const gpu = new SimulatedGpu({ requestSeconds: 0.01, prefillSecondsPerToken: 0.0002, decodeSecondsPerToken: 0.02 });
  const server = await startOpenAiTestServer(reference, { ...options, gpu });
  servers.push(server);
  const sent: Sent[] = [];
  let connected = false;
  const recording: typeof fetch = async (input, init) => {
    if (connected && String(input).endsWith('/completions')) {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      sent.push({ prompt: body.prompt, body });
      if (sent.length > refuseAfter) return new Response(JSON.stringify({ error: { message: 'The prompt was flagged by the content filter' } }), { status: 400 });
    }
    return fetch(input, init);
  };
  const remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference', maxLogprobs: options.maxLogprobs }, gpu.clientFetch(recording)));
  connected = true;
  return { gpu, server, remote, sent };
}

/** The echo path's score of `label` after `prompt`: the logprobs of the tokens of prompt + label that overlap the label. */
async function echoedScore(prompt: string, label: string): Promise<number> {
  const whole = await reference.tokenize(prompt + label);
  const start = [...prompt].length;
  let sum = 0;
  for (let j = 1; j < whole.length; j++) {
    const end = [...(await reference.detokenize(whole.slice(0, j + 1)))].length;
    if (end > start) sum += Math.log((await reference.nextTokenDistribution(whole.slice(0, j))).probs[whole[j]]);
  }
  return sum;
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

  it('a single-token label outside the top logprobs is echoed alone (no second read of the prompt); a label of several tokens echoes all; the scores stay exact', async () => {
    const { remote, sent } = await remoteOn({ maxLogprobs: 2 });
    const base = await reference.tokenize(prompt);
    const oneMore = async (label: string) => (await reference.tokenize(prompt + label)).length === base.length + 1;
    const ranked = await reference.topNextTokens(prompt, 12);
    const outside = ranked.slice(2).find((t) => t.special === undefined);
    expect(outside && (await oneMore(outside.text))).toBe(true);
    const single = [ranked[0].text, outside!.text];
    const expectedSingle = await reference.scoreLabels(prompt, single);
    (await remote.scoreLabels(prompt, single)).forEach((s, i) => expect(s).toBeCloseTo(expectedSingle[i], 9));
    // The prompt alone once (top logprobs), then the outside label echoed: the logit-bias read is gone.
    expect(sent.map((r) => r.prompt)).toEqual([[prompt], [prompt + outside!.text]]);

    const labels = [...single, ' free money'];
    expect((await reference.tokenize(' free money')).length).toBeGreaterThan(1);
    const expected = await reference.scoreLabels(prompt, labels);
    const from = sent.length;
    (await remote.scoreLabels(prompt, labels)).forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    expect(sent.slice(from).map((r) => r.prompt)).toEqual([labels.map((l) => prompt + l)]);
  }, 60_000);

  it('a refused request surfaces and no prompt is sent again', async () => {
    const { remote, sent } = await remoteOn({ maxLogprobs: 2 }, 1);
    const ranked = await reference.topNextTokens(prompt, 12);
    const outside = ranked.slice(2).find((t) => t.special === undefined)!;
    await expect(remote.scoreLabels(prompt, [ranked[0].text, outside.text])).rejects.toThrow(/content filter/);
    const prompts = sent.flatMap((r) => r.prompt as unknown[]);
    expect(prompts).toEqual([...new Set(prompts)]); // before: the prompt again after a refused logit-bias read
    expect(prompts.filter((p) => p === prompt)).toHaveLength(1);
  }, 60_000);

  it('the top-logprob read asks for the model\'s own logprobs: neutral penalties in the body', async () => {
    const { remote, sent } = await remoteOn({ maxLogprobs: 100 });
    await remote.scoreLabels(prompt, LABELS);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ prompt: [prompt], repetition_penalty: 1, presence_penalty: 0, frequency_penalty: 0 });
  }, 60_000);

  it('logprobs keyed by token text are not trusted (two tokens with one text share a JSON key): every label is echoed, exact', async () => {
    const { remote, sent } = await remoteOn({ maxLogprobs: 100, textKeys: true });
    const expected = await reference.scoreLabels(prompt, LABELS);
    (await remote.scoreLabels(prompt, LABELS)).forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    expect(sent.map((r) => r.prompt)).toEqual([[prompt], LABELS.map((l) => prompt + l)]);
  }, 60_000);

  it('a label of one token alone that merges with the prompt\'s end is echoed, scored over the merged token', async () => {
    const { remote, sent } = await remoteOn({ maxLogprobs: 100 });
    const spaced = `${prompt} `; // "Label: " + "spam" → "Label:" + " spam"
    const labels = ['spam', 'ham'];
    for (const label of labels) expect(await reference.tokenize(label)).toHaveLength(1);
    const base = await reference.tokenize(spaced);
    expect(await reference.tokenize(spaced + 'spam')).toHaveLength(base.length); // merged, not one more
    const expected = await Promise.all(labels.map((l) => echoedScore(spaced, l)));
    const scores = await remote.scoreLabels(spaced, labels);
    scores.forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    expect(scores.every((s) => s < 0)).toBe(true); // before: 0 (only tokens starting inside the label were summed)
    expect(sent.map((r) => r.prompt)).toEqual([labels.map((l) => spaced + l)]);
  }, 60_000);

  it('an emoji in the prompt: echo offsets count code points, the scores stay exact', async () => {
    const { remote, sent } = await remoteOn({ maxLogprobs: 100 });
    const emojiPrompt = answerPrompt(template, task, [{ text: 'free money 🤑, click now', label: 'spam' }], 'click for free money 💰');
    const labels = [' spam', ' free money']; // several tokens: echoed
    const expected = await reference.scoreLabels(emojiPrompt, labels);
    (await remote.scoreLabels(emojiPrompt, labels)).forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
    expect(sent.map((r) => r.prompt)).toEqual([labels.map((l) => emojiPrompt + l)]);
  }, 60_000);

  it('echo offsets shifted by a BOS text (as vLLM counts it): the window is anchored at the end, the scores stay exact', async () => {
    const { remote } = await remoteOn({ maxLogprobs: 100, bosText: '<|begin_of_text|>' });
    const labels = [' spam', ' free money']; // several tokens: echoed
    const expected = await reference.scoreLabels(prompt, labels);
    (await remote.scoreLabels(prompt, labels)).forEach((s, i) => expect(s).toBeCloseTo(expected[i], 9));
  }, 60_000);

  it('a vote query sends each teacher prompt alone once and echoes only the labels outside its top logprobs', async () => {
    const { gpu, server, remote } = await remoteOn({ maxLogprobs: 20 }); // vLLM's default --max-logprobs
    const texts = ['free money offer, click now', 'patch review for the build', 'cheap pills online today', 'meeting notes from monday'];
    const groups = texts.map((text, i): PoolRecord[] => [{ text, label: i % 2 ? 'ham' : 'spam' }]);
    const query = 'win a free prize now';
    const teacherPrompts = groups.map((records) => answerPrompt(template, task, records, query));
    const before = gpu.counts;
    const from = server.completionPrompts.length;
    const { result, failures } = await answerQuery({
      model: remote, pool: { units: texts.length, sampleTeachers: async () => groups }, template, task, method: 'vote', ensemble: texts.length, shots: 1, q: 1,
      noise: null, ptrDelta: 1e-6, keywords: 3, candidates: 2, candidateTemperature: 1, maxTokens: 4, random: cryptoRandom,
    }, query);
    expect(failures).toBe(0);
    expect(result.histogram!.reduce((a, b) => a + b, 0)).toBe(texts.length);
    const used = countsSince(gpu.counts, before);
    const sent = server.completionPrompts.slice(from).flat() as string[];
    const alone = sent.filter((p) => teacherPrompts.includes(p));
    const echoed = sent.filter((p) => !teacherPrompts.includes(p));
    expect(alone).toEqual(teacherPrompts); // each once, in teacher order
    expect(echoed.every((p) => teacherPrompts.some((t) => p === t + ' spam' || p === t + ' ham'))).toBe(true);
    // The reference learner copies its demonstration's label: the other label is far down its
    // distribution, so each teacher echoes one label (echoing both: two whole prefills each).
    expect(echoed.length).toBeLessThan(2 * texts.length);
    const tokens = async (texts: string[]) => (await Promise.all(texts.map((t) => reference.tokenize(t)))).reduce((a, t) => a + t.length, 0);
    expect(used.prefilledTokens).toBeLessThanOrEqual((await tokens(alone)) + (await tokens(echoed)));
    expect(used.prefilledTokens).toBeLessThan(await tokens(teacherPrompts.flatMap((t) => [t + ' spam', t + ' ham'])));
  }, 60_000);
});
