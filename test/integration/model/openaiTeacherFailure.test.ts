/**
 * A teacher prompt that the OpenAI-compatible server refuses (a content filter triggered by
 * one private record: HTTP 400 for the whole batched request) does not stop the step: that
 * teacher gets the uniform vector, every other teacher exactly the vector the server gives
 * its prompt alone, and a whole job on a pool full of such records runs to its end
 * (issue 20 item 2). A server that is down stops it (a public failure).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tangAggregator } from '../../../core/icl/dpFewShot';
import { inMemoryPool, type PoolRecord } from '../../../core/icl/privatePool';
import { defaultTemplate, teacherPrompt } from '../../../core/icl/prompts';
import { synthesizeDemonstrations } from '../../../core/icl/synthesize';
import { spreadShots } from '../../../core/icl/synthesisPlan';
import { teacherVectors } from '../../../core/icl/teacherEnsemble';
import { newTeacherTally, PublicEvaluationError, uniformVector } from '../../../core/icl/teacherEvaluation';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import { OpenAiClient } from '../../../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../../../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { startOpenAiTestServer, type TestServer } from './openaiTestServer';

const MARKER = 'FLAGGED';
const template = defaultTemplate('Classify each e-mail as spam or ham.');
let server: TestServer;
let remote: RemoteModel;

beforeAll(async () => {
  server = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 5, refuseMarker: MARKER });
  remote = await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference', maxLogprobs: 5 }));
});
afterAll(() => server?.close());

describe('OpenAI-compatible backend: a refused teacher prompt', () => {
  it('gets the uniform vector; the other teachers get exactly their own vectors', async () => {
    const texts = ['free money, click now', `meeting notes ${MARKER}`, 'patch review for the build', 'cheap pills online'];
    const pool = { units: texts.length, sampleTeachers: async () => texts.map((text): PoolRecord[] => [{ text }]) };
    const candidates = (await remote.topNextTokens('Classify each e-mail as spam or ham.\n\nText:', 8)).map((t) => t.token);
    const tally = newTeacherTally();
    const vectors = await teacherVectors({ model: remote, template, pool, label: 'spam', soFar: '', candidates, q: 1, teachers: 4, perTeacher: 1, random: cryptoRandom, teacherTally: tally });
    expect(vectors[1]).toEqual(uniformVector(candidates.length));
    for (const m of [0, 2, 3]) {
      const alone = await remote.nextTokenDistribution(teacherPrompt(template, [{ text: texts[m], label: 'spam' }], 'spam', ''), { restrictTo: candidates });
      expect(Array.from(vectors[m])).toEqual(Array.from(alone.probs, (p) => p / alone.probs.reduce((s, x) => s + x, 0)));
      expect(vectors[m]).not.toEqual(uniformVector(candidates.length));
    }
    expect(tally).toEqual({ evaluated: 4, substituted: 1 });
  }, 60_000);

  it('after a refused batch, asks each teacher alone and one at a time (never two private prompts in flight)', async () => {
    const slow = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 5, refuseMarker: MARKER, completionDelayMs: 20 });
    try {
      const model = await RemoteModel.connect(new OpenAiClient({ baseUrl: slow.baseUrl, model: 'reference', maxLogprobs: 5 }));
      const texts = ['free money, click now', `meeting notes ${MARKER}`, 'patch review for the build', 'cheap pills online'];
      const pool = { units: texts.length, sampleTeachers: async () => texts.map((text): PoolRecord[] => [{ text }]) };
      slow.resetPeak();
      const tally = newTeacherTally();
      await teacherVectors({ model, template, pool, label: 'spam', soFar: '', candidates: [1, 2, 3], q: 1, teachers: 4, perTeacher: 1, random: cryptoRandom, teacherTally: tally });
      expect(tally).toEqual({ evaluated: 4, substituted: 1 });
      expect(slow.peakCompletions).toBe(1);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('a job on a pool where every record is refused runs to its end', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `note ${i} ${MARKER}`);
    const pools = spreadShots(2, ['spam']).map((p) => ({ plan: { ...p, units: texts.length }, pool: inMemoryPool(texts) }));
    const tally = newTeacherTally();
    const demonstrations = await synthesizeDemonstrations({
      model: remote, template, pools, shape: { teachers: 3, perTeacher: 2, topK: 5, maxTokens: 3 },
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1 }), random: cryptoRandom, teacherTally: tally,
    });
    expect(demonstrations).toHaveLength(2);
    expect(tally.substituted).toBeGreaterThan(0);
  }, 120_000);

  it('a server that is down stops the step as a public failure', async () => {
    const down = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 5 });
    const model = await RemoteModel.connect(new OpenAiClient({ baseUrl: down.baseUrl, model: 'reference', maxLogprobs: 5 }));
    await down.close();
    const pool = { units: 2, sampleTeachers: async () => [[{ text: 'a' }], [{ text: 'b' }]] };
    await expect(teacherVectors({ model, template, pool, soFar: '', candidates: [1, 2, 3], q: 1, teachers: 2, perTeacher: 1, random: cryptoRandom })).rejects.toThrow(PublicEvaluationError);
  }, 60_000);
});
