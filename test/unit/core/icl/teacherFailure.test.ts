/**
 * A failing teacher changes nothing that is released and never stops the job (issue 20 item 2):
 * a backend that fails on a marker record (an error, a NaN, a missing logprob — a vector of the
 * wrong length) gets the uniform vector in that teacher's place, the other teachers keep their
 * exact vectors, the job runs to its end with the same progress, and the substitutions are only
 * counted in the tally. A public failure (the public prompt's evaluation) stops it; so does
 * cancellation.
 */
import { describe, expect, it } from 'vitest';
import { tangAggregator } from '../../../../core/icl/dpFewShot';
import { inMemoryPool, type PoolRecord, type PrivatePool } from '../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../core/icl/prompts';
import { synthesizeDemonstrations, type SynthesisProgress } from '../../../../core/icl/synthesize';
import { spreadShots } from '../../../../core/icl/synthesisPlan';
import { teacherVectors } from '../../../../core/icl/teacherEnsemble';
import { newTeacherTally, probabilityVector, PublicEvaluationError, uniformVector } from '../../../../core/icl/teacherEvaluation';
import type { LanguageModel, Prompt, TokenDistribution } from '../../../../core/model/languageModel';
import { allowSeededOnPrivatePath } from '../../../../core/random/privatePathRandom';
import { seededRandom } from '../../../../core/random/seededRandom';
import { fakeModel } from './fakeModel';

const MARKER = 'FLAGGED';
const template = defaultTemplate('Classify the e-mail.');
const random = (seed: number) => allowSeededOnPrivatePath(seededRandom(seed), 'test');
type Failure = 'throws' | 'nan' | 'missing logprob';

/** The fake model, failing on any prompt that holds the marker, as a remote server or llama.cpp may. */
function failingModel(failure: Failure, calls = { batches: 0, singles: 0 }): LanguageModel {
  const inner = fakeModel();
  const broken = (d: TokenDistribution): TokenDistribution =>
    failure === 'nan' ? { ...d, probs: d.probs.map((p, i) => (i === 0 ? NaN : p)) } : { ...d, probs: d.probs.slice(1) };
  const one = async (p: Prompt, options?: Parameters<LanguageModel['nextTokenDistribution']>[1]) => {
    const d = await inner.nextTokenDistribution(p, options);
    if (!String(p).includes(MARKER)) return d;
    if (failure === 'throws') throw new Error('HTTP 400: content filter');
    return broken(d);
  };
  return {
    ...inner,
    nextTokenDistribution: (p, options) => (calls.singles++, one(p, options)),
    nextTokenDistributions: async (prompts, options) => {
      calls.batches++;
      if (failure === 'throws' && prompts.some((p) => String(p).includes(MARKER))) throw new Error('HTTP 400: content filter');
      return Promise.all(prompts.map((p) => one(p, options)));
    },
  };
}

/** Teachers 0..3, one record each; teacher 1's record carries the marker. */
const fixedPool = (texts: string[]): PrivatePool => ({
  units: texts.length,
  sampleTeachers: async () => texts.map((text): PoolRecord[] => [{ text }]),
});

describe('a failing teacher', () => {
  const candidates = [0, 1, 2];
  const common = { template, label: 'spam', soFar: 'a', candidates, q: 1, teachers: 4, perTeacher: 1, random: random(1) };

  it.each<Failure>(['throws', 'nan', 'missing logprob'])('%s: gets the uniform vector; the other teachers keep theirs exactly', async (failure) => {
    const texts = ['alpha one', `beta ${MARKER} two`, 'alpha beta three', 'beta four'];
    const clean = texts.map((t) => t.replace(MARKER, 'x'));
    const tally = newTeacherTally();
    const calls = { batches: 0, singles: 0 };
    const vectors = await teacherVectors({ ...common, model: failingModel(failure, calls), pool: fixedPool(texts), teacherTally: tally });
    const reference = await teacherVectors({ ...common, model: fakeModel(), pool: fixedPool(clean) });
    expect(vectors[1]).toEqual(uniformVector(3));
    for (const m of [0, 2, 3]) expect(vectors[m]).toEqual(reference[m]);
    expect(tally).toEqual({ evaluated: 4, substituted: 1 });
    // A failed batch is retried prompt by prompt (the failure touches its own teacher), then the public prompt is checked.
    if (failure === 'throws') expect(calls).toEqual({ batches: 1, singles: 4 + 1 });
    else expect(calls).toEqual({ batches: 1, singles: 1 });
  });

  it('the job runs to its end, shows the same progress and releases what a uniform teacher would give', async () => {
    // Every record carries the marker: every teacher fails at every step.
    const texts = Array.from({ length: 30 }, (_, i) => `${i % 2 ? 'alpha' : 'beta'} ${MARKER} note ${i}`);
    const shape = { teachers: 5, perTeacher: 2, topK: 3, maxTokens: 4 };
    const pools = spreadShots(3, ['spam']).map((p) => ({ plan: { ...p, units: texts.length }, pool: inMemoryPool(texts) }));
    const run = async (model: LanguageModel) => {
      const progress: SynthesisProgress[] = [];
      const tally = newTeacherTally();
      const demonstrations = await synthesizeDemonstrations({
        model, template, pools, shape, aggregator: tangAggregator({ kind: 'gaussian', sigma: 0.5 }), random: random(5), teacherTally: tally,
        onProgress: (p) => progress.push(p),
      });
      return { demonstrations, progress, tally };
    };
    const failing = await run(failingModel('throws'));
    // The same job with a backend that answers the uniform vector for those prompts.
    const uniformInner = fakeModel();
    const uniform: LanguageModel = {
      ...uniformInner,
      nextTokenDistributions: async (prompts, options) =>
        Promise.all(prompts.map(async (p) => (String(p).includes(MARKER) ? { tokens: options?.restrictTo, probs: uniformVector(options!.restrictTo!.length) } : uniformInner.nextTokenDistribution(p, options)))),
    };
    const substitute = await run(uniform);
    expect(failing.demonstrations).toEqual(substitute.demonstrations);
    expect(failing.progress).toEqual(substitute.progress);
    expect(failing.demonstrations).toHaveLength(3);
    // Every teacher with a record fails (an empty teacher holds no marker).
    expect(failing.tally.substituted).toBeGreaterThan(failing.tally.evaluated / 2);
    expect(failing.tally.evaluated).toBeGreaterThan(0);
    expect(substitute.tally).toEqual({ evaluated: failing.tally.evaluated, substituted: 0 });
  });

  it('a public failure stops the job: the public prompt fails too, or its top-K', async () => {
    const down = fakeModel();
    down.nextTokenDistribution = () => Promise.reject(new Error('connect ECONNREFUSED'));
    down.nextTokenDistributions = () => Promise.reject(new Error('connect ECONNREFUSED'));
    const texts = ['alpha one', 'beta two', 'alpha three', 'beta four'];
    await expect(teacherVectors({ ...common, model: down, pool: fixedPool(texts) })).rejects.toThrow(PublicEvaluationError);
    await expect(teacherVectors({ ...common, model: down, pool: fixedPool(texts) })).rejects.toThrow(/failed on the public prompt \(not on a private record\): connect ECONNREFUSED/);
    const noTop = fakeModel();
    noTop.topNextTokens = () => Promise.reject(new Error('server down'));
    const pools = spreadShots(1, ['spam']).map((p) => ({ plan: { ...p, units: 4 }, pool: inMemoryPool(texts) }));
    await expect(
      synthesizeDemonstrations({ model: noTop, template, pools, shape: { teachers: 2, perTeacher: 1, topK: 3, maxTokens: 2 }, aggregator: tangAggregator({ kind: 'gaussian', sigma: 1 }), random: random(2) }),
    ).rejects.toThrow('server down');
  });

  it('cancellation is never taken for a teacher failure', async () => {
    const controller = new AbortController();
    const model = fakeModel();
    model.nextTokenDistributions = () => (controller.abort(), Promise.reject(new DOMException('aborted', 'AbortError')));
    const tally = newTeacherTally();
    await expect(teacherVectors({ ...common, model, pool: fixedPool(['a', 'b', 'c', 'd']), signal: controller.signal, teacherTally: tally })).rejects.toThrow('aborted');
    expect(tally.substituted).toBe(0);
  });

  it('renormalises a valid vector and refuses what is not a probability vector', () => {
    expect(probabilityVector([2, 2], 2)).toEqual(Float64Array.from([0.5, 0.5]));
    for (const bad of [[NaN, 1], [Infinity, 1], [-0.1, 1], [0, 0], [1]]) expect(probabilityVector(bad, 2)).toBeNull();
    expect(probabilityVector(undefined, 2)).toBeNull();
  });
});
