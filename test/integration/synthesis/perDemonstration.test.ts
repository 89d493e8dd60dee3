/**
 * Sampling once per demonstration on real llama.cpp (generated tiny GGUF): with (almost) no
 * noise the released demonstration is the non-private ensemble's output for the same fixed
 * teachers — every prompt evaluated afresh, argmax of the summed vectors — and the host
 * prefills each teacher prompt once, then decodes one token per teacher per step, where
 * per-token sampling prefills every teacher prompt at every step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidatesOf, generateDemonstration, type SynthesisShape } from '../../../core/icl/demonstration';
import { tangAggregator } from '../../../core/icl/dpFewShot';
import { inMemoryPool, type PoolRecord, type PrivatePool } from '../../../core/icl/privatePool';
import { defaultTemplate, publicPrompt, teacherPrompt, INPUT_PHASE } from '../../../core/icl/prompts';
import { argmax, sumVectors } from '../../../core/icl/teacherEnsemble';
import type { TopToken } from '../../../core/model/languageModel';
import { firstStop } from '../../../core/model/stopStrings';
import { seededRandom } from '../../../core/random/seededRandom';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';

/** A seeded source, opted in for this test only (the private path refuses one otherwise). */
const seeded = (seed: number) => allowSeededOnPrivatePath(seededRandom(seed), 'test');
import type { LlamaModel } from '../../../electron/services/model/llamaModel';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import { workspace, type Workspace } from '../model/modelFixture';

let ws: Workspace;
let model: LlamaModel;
const template = defaultTemplate('Write an e-mail of the given class.');
const texts = ['free money offer click now', 'meeting at noon about the list', 'thanks for the help with the mail', 'click here to get free money', 'the people of the world', 'please see the message below'];
const shape: SynthesisShape = { teachers: 4, perTeacher: 1, topK: 20, maxTokens: 8, sampling: 'per-demonstration' };

/** The in-memory pool, remembering each draw of teachers. */
function recordingPool(draws: PoolRecord[][][]): PrivatePool {
  const inner = inMemoryPool(texts);
  return { units: inner.units, sampleTeachers: async (q, m, random) => (draws.push(await inner.sampleTeachers(q, m, random)), draws.at(-1)!) };
}

beforeAll(async () => {
  ws = workspace('perdemo');
  const job = await ws.load(ws.gguf('tiny.gguf', { seed: 3 }), { threads: 1, sequences: shape.teachers, contextSize: 512 });
  expect(job.status).toBe('succeeded');
  model = (await (await getModelService(ws.ctx)).current()) as LlamaModel;
});
afterAll(() => ws?.remove());

describe('sampling per demonstration (llama.cpp)', () => {
  it('with no noise releases the non-private ensemble’s demonstration for the same teachers', async () => {
    const draws: PoolRecord[][][] = [];
    const demo = await generateDemonstration({
      model, template, pool: recordingPool(draws), label: 'spam', shape, rate: 0.5,
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1e-12 }), random: seeded(4),
    });
    expect(draws).toHaveLength(1); // one sample for the whole demonstration
    const [groups] = draws;
    expect(groups.flat().length).toBeGreaterThan(0);

    // The non-private ensemble, every prompt evaluated afresh (no `continuing`).
    const teachers = await Promise.all(groups.map((g) => model.tokenize(teacherPrompt(template, g.map((r) => ({ ...r, label: 'spam' })), 'spam', '', INPUT_PHASE))));
    const open = await model.tokenize(publicPrompt(template, 'spam', ''));
    const chosen: TopToken[] = [];
    let text = '';
    for (let step = 1; step <= shape.maxTokens; step++) {
      const top = candidatesOf(await model.topNextTokens([...open, ...chosen.map((t) => t.token)], shape.topK), step === 1, 'spam');
      const dists = await model.nextTokenDistributions(teachers.map((p) => [...p, ...chosen.map((t) => t.token)]), { restrictTo: top.map((t) => t.token) });
      const next = top[argmax(sumVectors(dists.map((d) => d.probs), top.length))];
      if (next.special === 'end' || next.text === '') break;
      chosen.push(next);
      const written = await model.detokenize(chosen.map((t) => t.token));
      const end = firstStop(written, ['\n', 'Text:', 'Label:', 'Output:']);
      text = end === null ? written : written.slice(0, end);
      if (end !== null) break;
    }
    expect(demo.text).toBe(text.replace(/\uFFFD/g, '').trim());
    expect(demo.text.length).toBeGreaterThan(0);
  });

  it('prefills each teacher prompt once, then decodes one token per teacher per step; per token prefills every step', async () => {
    const evaluated = async (sampling: SynthesisShape['sampling']) => {
      const draws: PoolRecord[][][] = [];
      const before = (await model.counters()).evaluatedTokens;
      const demo = await generateDemonstration({
        model, template, pool: recordingPool(draws), label: 'spam', shape: { ...shape, sampling }, rate: 0.5,
        aggregator: tangAggregator({ kind: 'gaussian', sigma: 1e-12 }), random: seeded(9),
      });
      return { tokens: (await model.counters()).evaluatedTokens - before, steps: demo.steps, draws };
    };
    const fixed = await evaluated('per-demonstration');
    const groups = fixed.draws[0];
    const prefixes = await Promise.all(groups.map(async (g) => (await model.tokenize(teacherPrompt(template, g.map((r) => ({ ...r, label: 'spam' })), 'spam', '', INPUT_PHASE))).length + 1));
    const teacherTokens = prefixes.reduce((a, b) => a + b, 0) + shape.teachers * (fixed.steps - 1);
    const publicTokens = (await model.tokenize(publicPrompt(template, 'spam', ''))).length + 1 + fixed.steps;
    expect(fixed.steps).toBeGreaterThan(2);
    expect(fixed.tokens).toBeGreaterThanOrEqual(teacherTokens);
    expect(fixed.tokens).toBeLessThanOrEqual(teacherTokens + publicTokens);

    const perToken = await evaluated('per-token');
    expect(perToken.draws).toHaveLength(perToken.steps); // a fresh sample every step
    const leastPerStep = (await model.tokenize(publicPrompt(template, 'spam', ''))).length * shape.teachers;
    expect(perToken.tokens).toBeGreaterThanOrEqual(leastPerStep * perToken.steps);
  });
});
