import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerBatch } from '../../../../../core/icl/answering/answerBatch';
import { answerQuery, type AnswerSettings } from '../../../../../core/icl/answering/answerQuery';
import { keywordUniverse } from '../../../../../core/icl/answering/keywords';
import type { PoolRecord, PrivatePool } from '../../../../../core/icl/privatePool';
import { inMemoryPool } from '../../../../../core/icl/privatePool';
import { defaultTemplate } from '../../../../../core/icl/prompts';
import { poissonSampleTeachers } from '../../../../../core/mechanisms/poissonSampling';
import { seededRandom } from '../../../../../core/random/seededRandom';
import { allowSeededOnPrivatePath } from '../../../../../core/random/privatePathRandom';
import type { RandomSource } from '../../../../../core/random/randomSource';
import { answerFakeModel, PUBLIC_WORDS } from './answerFakeModel';

const labelled = (n: number, label: string): PoolRecord[] => Array.from({ length: n }, (_, i) => ({ text: `mail ${i}`, label }));

function settings(pool: PrivatePool, overrides: Partial<AnswerSettings> = {}): AnswerSettings {
  return {
    model: answerFakeModel(), pool, template: defaultTemplate('Classify.'), task: { kind: 'classification', labels: ['ham', 'spam'] },
    method: 'vote', ensemble: 10, shots: 2, q: 0.5, noise: null, ptrDelta: 1e-6, keywords: 3, candidates: 5, candidateTemperature: 1, maxTokens: 16,
    random: allowSeededOnPrivatePath(seededRandom(1), 'test'), ...overrides,
  };
}

/**
 * The neighbour of a pool with one extra unit, sampled in coupling: the same draw for the
 * shared units, and the extra unit (if sampled) on one uniformly chosen teacher.
 */
function coupledPools(records: PoolRecord[], extra: PoolRecord, seed: number): { pool: PrivatePool; neighbour: PrivatePool } {
  const draw = (withExtra: boolean): PrivatePool => ({
    units: records.length + (withExtra ? 1 : 0),
    async sampleTeachers(q, teachers) {
      const r = seededRandom(seed);
      const groups = poissonSampleTeachers(records.length, q, teachers, r).map((g) => g.map((i) => records[i]));
      const extraSampled = r.nextFloat() < q;
      const teacher = Math.floor(r.nextFloat() * teachers);
      if (withExtra && extraSampled) groups[teacher].unshift(extra); // first: the per-teacher cap cuts another of its own records
      return groups;
    },
  });
  return { pool: draw(false), neighbour: draw(true) };
}

describe('answerQuery', () => {
  it('one added unit changes at most one teacher’s vote (per-teacher cap included)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('ham', 'spam'), { minLength: 1, maxLength: 60 }), fc.constantFrom('ham', 'spam'), fc.integer(), async (labels, extraLabel, seed) => {
        const records = labels.map((label, i) => ({ text: `mail ${i}`, label }));
        const { pool, neighbour } = coupledPools(records, { text: 'extra', label: extraLabel }, seed);
        const a = await answerQuery(settings(pool), 'is this spam?');
        const b = await answerQuery(settings(neighbour), 'is this spam?');
        const moved = a.result.histogram!.reduce((s, h, i) => s + Math.abs(h - b.result.histogram![i]), 0);
        expect(moved).toBeLessThanOrEqual(2);
      }),
      { numRuns: 60 },
    );
  });

  it('draws a fresh sample for every query', async () => {
    const seen: string[] = [];
    const pool = inMemoryPool(labelled(40, 'spam'));
    const tracked: PrivatePool = { units: pool.units, sampleTeachers: async (q, m, r: RandomSource) => { const g = await pool.sampleTeachers(q, m, r); seen.push(JSON.stringify(g)); return g; } };
    await answerBatch(settings(tracked), ['one', 'two', 'three']);
    expect(new Set(seen).size).toBe(3);
  });

  it('a failing teacher gives “no answer” without aborting; failures are only summed after the batch', async () => {
    const records = [...labelled(30, 'spam'), { text: 'FAIL me', label: 'spam' }];
    const { results, failedTeachers } = await answerBatch(settings(inMemoryPool(records), { q: 1, ensemble: 5, shots: 20 }), ['a', 'b']);
    expect(results.map((r) => r.answer)).toEqual(['spam', 'spam']);
    expect(results[0].histogram!.reduce((s, x) => s + x, 0)).toBe(4); // one of five teachers failed
    expect(failedTeachers).toBe(2);
    expect(Object.keys(results[0])).not.toContain('failures');
  });

  it('the private vote answers from the private examples; ε = ∞ equals the majority', async () => {
    const pool = inMemoryPool([...labelled(50, 'spam'), ...labelled(5, 'ham')]);
    const exact = await answerQuery(settings(pool), 'x');
    expect(exact.result.answer).toBe('spam');
    const noisy = await answerBatch(settings(pool, { noise: 1 }), Array(10).fill('x'));
    expect(noisy.results.filter((r) => r.answer === 'spam').length).toBeGreaterThanOrEqual(9);
  });

  it('the keyword universe and released keywords never hold a word found only in private records', async () => {
    const generation = (method: 'keyword' | 'ptr', noise: number | null) =>
      settings(inMemoryPool(Array.from({ length: 40 }, (_, i) => ({ text: `q${i}`, output: `seine zanzibarsecret${i % 2} river` }))), {
        method, noise, task: { kind: 'generation' }, q: 1, ensemble: 8, keywords: 2, template: defaultTemplate('Answer.'),
      });
    for (const [method, noise] of [['keyword', 50], ['keyword', null], ['ptr', 100], ['ptr', null]] as const) {
      const { result } = await answerQuery(generation(method, noise), 'which river crosses the city?');
      expect(result.keywords ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/zanzibar/)]));
      expect(result.keywords ?? []).toEqual(expect.arrayContaining(noise === null ? ['river'] : []));
    }
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PUBLIC_WORDS)), fc.array(fc.stringMatching(/^priv[a-z]{3,8}$/)), (candidateWords, privateWords) => {
        const universe = keywordUniverse('where is it', [candidateWords.join(' ')]);
        for (const w of privateWords) expect(universe).not.toContain(w);
      }),
    );
  });

  it('a teacher whose answer embedding is malformed (not unit norm, wrong dimension) is that teacher\'s failure, not the batch\'s', async () => {
    const pool = inMemoryPool([
      ...Array.from({ length: 20 }, (_, i) => ({ text: `q${i}`, output: 'seine river' })),
      { text: 'odd', output: 'BADNORM' }, { text: 'short', output: 'BADDIM' },
    ]);
    const model = answerFakeModel();
    const embed = model.embed.bind(model);
    model.embed = async (texts, signal) => (await embed(texts, signal)).map((v, i) =>
      texts[i].includes('BADNORM') ? v.map((x) => 3 * x) : texts[i].includes('BADDIM') ? v.slice(1) : v);
    const s = settings(pool, { model, method: 'embedding', task: { kind: 'generation' }, q: 1, ensemble: 22, shots: 1, noise: 0.5, template: defaultTemplate('Answer.') });
    const { results, failedTeachers } = await answerBatch(s, ['which river?']);
    expect(results).toHaveLength(1);
    expect(failedTeachers).toBeGreaterThanOrEqual(1);
  });

  it('embedding aggregation releases a public candidate; nothing private', async () => {
    const pool = inMemoryPool(Array.from({ length: 30 }, (_, i) => ({ text: `q${i}`, output: 'seine river' })));
    const s = settings(pool, { method: 'embedding', task: { kind: 'generation' }, q: 1, noise: 0.5, template: defaultTemplate('Answer.') });
    const { results } = await answerBatch(s, ['which river?']);
    expect(results[0].answer.split(' ').every((w) => PUBLIC_WORDS.includes(w))).toBe(true);
  });
});
