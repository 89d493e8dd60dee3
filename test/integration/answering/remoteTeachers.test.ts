/**
 * Answering teachers on an OpenAI-compatible server (the test server over the reference
 * learner). A GPU server's numerics may depend on what it batches together, so one unit's
 * change in teacher i's prompt could move teacher j's answer, against the one-teacher
 * sensitivity of the aggregations: the backend is not batch-invariant, and a query's teachers
 * go one request per teacher, one at a time — never two of them in one request or in flight
 * at once. A prompt the server refuses (a content filter: HTTP 400) costs only its own
 * teacher, asked once, which gives "no answer" — the query is still answered. Sampling from a
 * seeded source draws exactly one seed per sampled teacher, in teacher order; greedy teachers
 * draw none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPrompt, answerQuery, type AnswerSettings } from '../../../core/icl/answering/answerQuery';
import type { PoolRecord } from '../../../core/icl/privatePool';
import { defaultTemplate } from '../../../core/icl/prompts';
import { teacherResults, generationCall, labelScoreCall } from '../../../core/icl/answering/teacherCalls';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import { OpenAiClient } from '../../../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../../../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { startOpenAiTestServer, type TestServer } from '../model/openaiTestServer';

const MARKER = 'FLAGGED';
const template = defaultTemplate('Answer each text as in the examples.');
let server: TestServer;
let remote: RemoteModel;

beforeAll(async () => {
  // Each completion held a few ms, so that two requests in flight at once would overlap.
  server = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 5, refuseMarker: MARKER, completionDelayMs: 5 });
  remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference', maxLogprobs: 5 }));
}, 60_000);
afterAll(() => server?.close());

const teacherPrompt = (text: string) => answerPrompt(template, { kind: 'generation' }, [{ text, output: `about ${text}` }], 'what is it about?');

const TEXTS = ['free money offer', `meeting notes ${MARKER}`, 'patch review for the build', 'cheap pills online'];

/** Since `from`: for each completion request, which teachers' texts (indices into `texts`) its prompts hold. */
const teachersPerRequest = (from: number, texts: readonly string[]) =>
  server.completionPrompts.slice(from).map((prompts) => texts.flatMap((text, i) => (prompts.some((p) => typeof p === 'string' && p.includes(text)) ? [i] : [])));

function answerSettings(overrides: Partial<AnswerSettings>): AnswerSettings {
  return {
    model: remote, pool: { units: TEXTS.length, sampleTeachers: async () => TEXTS.map((text): PoolRecord[] => [{ text, output: `about ${text}` }]) }, template,
    task: { kind: 'generation' }, method: 'keyword', ensemble: TEXTS.length, shots: 1, q: 1, noise: null, ptrDelta: 1e-6,
    keywords: 3, candidates: 2, candidateTemperature: 1, maxTokens: 6, random: cryptoRandom, ...overrides,
  };
}

describe('answering teachers on an OpenAI-compatible server', () => {
  it('is not batch-invariant: no batched teacher call is offered', async () => {
    expect(remote.capabilities.batchInvariant).toBe(false);
    expect(generationCall(remote, { maxTokens: 4 }).batch).toBeUndefined();
    expect(labelScoreCall(remote, [' spam', ' ham']).batch).toBeUndefined();
    // The server would see two teachers in flight at once (what the tests below rule out).
    server.resetPeak();
    await Promise.all(['free money offer', 'meeting at noon'].map((text) => remote.generate(teacherPrompt(text), { maxTokens: 2 })));
    expect(server.peakCompletions).toBe(2);
  }, 60_000);

  for (const [name, overrides] of [
    ['keyword (generation)', {}],
    ['vote (label scores)', {
      task: { kind: 'classification', labels: ['spam', 'ham'] }, method: 'vote',
      pool: { units: TEXTS.length, sampleTeachers: async () => TEXTS.map((text): PoolRecord[] => [{ text, label: 'spam' }]) },
    }],
  ] as const) {
    it(`${name}: one request per teacher, never two in flight; a refused teacher costs only itself`, async () => {
      const from = server.completionPrompts.length;
      server.resetPeak();
      const { result, failures } = await answerQuery(answerSettings(overrides as Partial<AnswerSettings>), 'what is it about?');
      expect(server.peakCompletions).toBe(1);
      const perRequest = teachersPerRequest(from, TEXTS).filter((teachers) => teachers.length > 0);
      // Every request holds one teacher's prompt, teacher after teacher: no batch. A generating
      // teacher is asked once; a voting one once, or twice where a label is not among its prompt's
      // top logprobs (then echoed: RemoteModel.scoreLabels). The refused teacher is asked once, never again.
      expect(perRequest.every((teachers) => teachers.length === 1)).toBe(true);
      const asked = perRequest.map(([i]) => i);
      expect(asked.filter((i, k) => asked[k - 1] !== i)).toEqual(TEXTS.map((_, i) => i));
      expect(asked.filter((i) => i === 1)).toEqual([1]);
      if (name.startsWith('keyword')) expect(asked).toEqual(TEXTS.map((_, i) => i));
      expect(failures).toBe(1);
      if ('histogram' in result) expect(result.histogram!.reduce((a, b) => a + b, 0)).toBe(3);
      else expect(typeof result.answer).toBe('string');
    }, 60_000);
  }

  it('sampling from a seeded source: exactly one seed per sampled teacher, the refused one’s included, in teacher order', async () => {
    const prompts = [teacherPrompt('free money offer'), teacherPrompt(`notes ${MARKER}`), null, teacherPrompt('meeting at noon')];
    const options = { maxTokens: 4, temperature: 0.8, stop: ['\n'], random: seededRandom('refused') };
    const from = server.seeds.length;
    const resultOf = await teacherResults(generationCall(remote, options), prompts);
    expect(server.seeds.length).toBe(from); // nothing sent before a teacher's result is asked for
    const got: (string | null)[] = [];
    for (const j of [0, 1, 3]) got.push(await resultOf(j).then((text) => text, () => null));
    const expected = seededRandom('refused');
    expect(server.seeds.slice(from)).toEqual([0, 1, 3].map(() => expected.nextUint32()));
    expect(options.random.nextUint32()).toBe(expected.nextUint32()); // none drawn again
    expect(got[1]).toBeNull();
    expect(got[0]).not.toBeNull();
    await expect(resultOf(2)).rejects.toThrow(); // a teacher without records is not evaluated
  }, 60_000);

  it('greedy teachers draw no seed and send none', async () => {
    const prompts = [teacherPrompt('free money offer'), teacherPrompt('meeting at noon')];
    const random = seededRandom('greedy');
    const from = server.seeds.length;
    const resultOf = await teacherResults(generationCall(remote, { maxTokens: 4, temperature: 0, random }), prompts);
    for (const j of [0, 1]) await resultOf(j);
    expect(server.seeds.slice(from)).toEqual([null, null]);
    expect(random.nextUint32()).toBe(seededRandom('greedy').nextUint32());
  }, 60_000);
});
