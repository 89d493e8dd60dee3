/**
 * Answering teachers on an OpenAI-compatible server (the test server over the reference
 * learner): all teachers of a query go in one completion request, answered as each alone;
 * a prompt the server refuses (a content filter: HTTP 400 for the whole request) costs only
 * its own teacher, which gives "no answer" — the query is still answered — and every other
 * teacher gets from its own request exactly what the batch gives it (same numbers, same seeds
 * drawn in the same order: a seeded run goes on identically whichever path was taken).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPrompt, answerQuery } from '../../../core/icl/answering/answerQuery';
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
  server = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 5, refuseMarker: MARKER });
  remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference', maxLogprobs: 5 }));
}, 60_000);
afterAll(() => server?.close());

const teacherPrompt = (text: string) => answerPrompt(template, { kind: 'generation' }, [{ text, output: `about ${text}` }], 'what is it about?');

describe('answering teachers on an OpenAI-compatible server', () => {
  it('go in one completion request, each answered as alone', async () => {
    const prompts = [teacherPrompt('free money offer'), null, teacherPrompt('the river crosses the town'), teacherPrompt('meeting at noon')];
    const options = { maxTokens: 6, temperature: 0, stop: ['\n'] };
    const before = server.requests;
    const together = await remote.generateEach(prompts, options);
    const tokenizeCalls = together.filter((g) => g !== null).length; // the server's /tokenize, once per answer
    expect(server.requests - before).toBe(1 + tokenizeCalls);
    expect(together).toEqual(await Promise.all(prompts.map((p) => (p === null ? null : remote.generate(p, options)))));
  }, 60_000);

  it('score every teacher’s labels in one request, each as alone', async () => {
    const prompts = [`${teacherPrompt('free money offer')} spam\nLabel:`, null, `${teacherPrompt('meeting at noon')} ham\nLabel:`];
    const labels = [' spam', ' ham'];
    const before = server.requests;
    const together = await remote.scoreLabelsEach(prompts, labels);
    expect(server.requests - before).toBe(1);
    expect(together).toEqual(await Promise.all(prompts.map((p) => (p === null ? null : remote.scoreLabels(p, labels)))));
  }, 60_000);

  it('a refused teacher prompt costs that teacher only: it gives “no answer”, the query is answered', async () => {
    const texts = ['free money offer', `meeting notes ${MARKER}`, 'patch review for the build', 'cheap pills online'];
    const pool = { units: texts.length, sampleTeachers: async () => texts.map((text): PoolRecord[] => [{ text, output: `about ${text}` }]) };
    const { result, failures } = await answerQuery(
      {
        model: remote, pool, template, task: { kind: 'generation' }, method: 'keyword', ensemble: 4, shots: 1, q: 1, noise: null, ptrDelta: 1e-6,
        keywords: 3, candidates: 2, candidateTemperature: 1, maxTokens: 6, random: cryptoRandom,
      },
      'what is it about?',
    );
    expect(failures).toBe(1);
    expect(typeof result.answer).toBe('string');
    const labelled = { units: texts.length, sampleTeachers: async () => texts.map((text): PoolRecord[] => [{ text, label: 'spam' }]) };
    const vote = await answerQuery(
      {
        model: remote, pool: labelled, template, task: { kind: 'classification', labels: ['spam', 'ham'] }, method: 'vote', ensemble: 4, shots: 1, q: 1, noise: null,
        ptrDelta: 1e-6, keywords: 3, candidates: 2, candidateTemperature: 1, maxTokens: 6, random: cryptoRandom,
      },
      'cheap pills, click now',
    );
    expect(vote.failures).toBe(1);
    expect(vote.result.histogram!.reduce((a, b) => a + b, 0)).toBe(3);
  }, 60_000);

  it('after a refused batch, every other teacher gets exactly what the batch gives it', async () => {
    const prompts = [teacherPrompt('free money offer'), teacherPrompt(`notes ${MARKER}`), null, teacherPrompt('meeting at noon')];
    const refusedOut = prompts.map((p, j) => (j === 1 ? null : p));
    const options = { maxTokens: 6, temperature: 0, stop: ['\n'] };
    const fallback = await teacherResults(generationCall(remote, options), prompts);
    const batch = await remote.generateEach(refusedOut, options);
    for (const j of [0, 3]) expect(await fallback(j)).toBe(batch[j]!.text.trim());
    await expect(fallback(1)).rejects.toThrow();
    const labels = [' spam', ' ham'];
    const scored = await teacherResults(labelScoreCall(remote, labels), prompts.map((p) => p && `${p} spam\nLabel:`));
    const scoredBatch = await remote.scoreLabelsEach(refusedOut.map((p) => p && `${p} spam\nLabel:`), labels);
    for (const j of [0, 3]) expect(await scored(j)).toEqual(scoredBatch[j]);
  }, 60_000);

  it('greedy teachers draw no seed: a seeded run goes on the same after the batch or each teacher alone', async () => {
    const prompts = [teacherPrompt('free money offer'), teacherPrompt('meeting at noon')];
    const batchRandom = seededRandom('path');
    const aloneRandom = seededRandom('path');
    await remote.generateEach(prompts, { maxTokens: 4, temperature: 0, random: batchRandom });
    for (const p of prompts) await remote.generate(p, { maxTokens: 4, temperature: 0, random: aloneRandom });
    expect(aloneRandom.nextUint32()).toBe(batchRandom.nextUint32());
  }, 60_000);

  it('sampling from a seeded source: each teacher its own request and seed, as alone', async () => {
    const prompts = [teacherPrompt('free money offer'), null, teacherPrompt('meeting at noon')];
    const options = (random: ReturnType<typeof seededRandom>) => ({ maxTokens: 4, temperature: 0.8, random });
    let from = server.seeds.length;
    const together = await remote.generateEach(prompts, options(seededRandom('sampled')));
    const batchSeeds = server.seeds.slice(from);
    from = server.seeds.length;
    const aloneRandom = seededRandom('sampled');
    const alone = [];
    for (const p of prompts) alone.push(p === null ? null : await remote.generate(p, options(aloneRandom)));
    expect(batchSeeds).toEqual(server.seeds.slice(from));
    expect(batchSeeds).toHaveLength(2);
    expect(together).toEqual(alone);
  }, 60_000);

  it('sampling from a seeded source with a refused teacher: exactly M seeds, the others as on the batch path', async () => {
    const prompts = [teacherPrompt('free money offer'), teacherPrompt(`notes ${MARKER}`), null, teacherPrompt('meeting at noon')];
    const options = (random: ReturnType<typeof seededRandom>) => ({ maxTokens: 4, temperature: 0.8, random });
    let from = server.seeds.length;
    const results = await teacherResults(generationCall(remote, options(seededRandom('refused'))), prompts);
    // Every teacher's result taken (a failed batch would ask each alone here).
    const got = await Promise.all([0, 1, 3].map((j) => results(j).then((text) => text, () => null)));
    const drawn = server.seeds.slice(from);
    // One seed per teacher with records (M = 3), the refused one's included; none drawn again.
    expect(drawn).toHaveLength(3);
    expect(got[1]).toBeNull();
    // The batch path: each teacher's own request, seeds drawn in prompt order from the same source.
    from = server.seeds.length;
    const aloneRandom = seededRandom('refused');
    const alone: (string | null)[] = [];
    for (const p of prompts) alone.push(p === null ? null : await remote.generate(p, options(aloneRandom)).then((g) => g.text.trim(), () => null));
    expect([...drawn].sort()).toEqual([...server.seeds.slice(from)].sort());
    expect([got[0], got[2]]).toEqual([alone[0], alone[3]]);
    expect(alone[0]).not.toBeNull();
  }, 60_000);
});
