import { describe, expect, it } from 'vitest';
import { attackApplies, attackScores, repeatSplit, softmaxAt, type AttackContext } from '../../../../core/audit/attacks';
import { baselineDesign, poolDesign } from '../../../../core/audit/membership';
import { poolWithCanaries } from '../../../../core/audit/workingCopy';
import { makeCanaries } from '../../../../core/audit/canaries';
import { inMemoryPool } from '../../../../core/icl/privatePool';
import type { LanguageModel } from '../../../../core/model/languageModel';
import { seededRandom } from '../../../../core/random/seededRandom';

/** Embeddings: one-hot by first word, so cosine is 1 for the same first word, else 0. */
const embedModel = {
  embed: async (texts: readonly string[]) => texts.map((t) => Float32Array.from([t.startsWith('alpha') ? 1 : 0, t.startsWith('alpha') ? 0 : 1])),
} as unknown as LanguageModel;

const ctx = (target: AttackContext['target']): AttackContext => ({ target, model: embedModel, labels: ['spam', 'ham'] });

describe('attack score functions (constructed cases)', () => {
  it('label: the softmax probability of the true label', async () => {
    const target = { classify: async () => [Math.log(0.2), Math.log(0.6)] };
    const scores = await attackScores('label', { text: 'x', label: 'ham' }, ctx(target));
    expect(scores['label-probability']).toBeCloseTo(0.75, 12); // 0.6 / (0.2 + 0.6)
    await expect(attackScores('label', { text: 'x', label: 'other' }, ctx(target))).rejects.toThrow(/public label set/);
  });

  it('repeat: shows the first half of the words and compares the continuation with the rest', async () => {
    expect(repeatSplit('one two three four five')).toEqual({ start: 'one two', rest: 'three four five' });
    expect(repeatSplit(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')).start.split(' ')).toHaveLength(16);
    const seen: string[] = [];
    const verbatim = { complete: async (start: string) => (seen.push(start), 'alpha beta gamma') };
    const exact = await attackScores('repeat', { text: 'one two three alpha beta gamma', label: null }, ctx(verbatim));
    expect(seen).toEqual(['one two three']);
    expect(exact).toEqual({ 'repeat-rouge-l': 1, 'repeat-cosine': 1 });
    const silent = await attackScores('repeat', { text: 'one two three alpha beta gamma', label: null }, ctx({ complete: async () => '' }));
    expect(silent).toEqual({ 'repeat-rouge-l': 0, 'repeat-cosine': 0 });
  });

  it('inquiry: p(Yes) / (p(Yes) + p(No)) for the question about the text', async () => {
    let asked = '';
    const target = { ask: async (q: string) => ((asked = q), [Math.log(0.3), Math.log(0.1)]) };
    expect((await attackScores('inquiry', { text: 'secret  text', label: null }, ctx(target)))['inquiry-yes']).toBeCloseTo(0.75, 12);
    expect(asked).toContain('"secret text"');
  });

  it('an attack applies only where the target answers its queries', () => {
    expect(attackApplies('label', { target: {}, labels: ['a', 'b'] })).toBe(false);
    expect(attackApplies('label', { target: { classify: async () => [] }, labels: [] })).toBe(false);
    expect(attackApplies('repeat', { target: { complete: async () => '' }, labels: [] })).toBe(true);
  });

  it('softmax is stable for very negative log-probabilities', () => {
    expect(softmaxAt([-1000, -1001], 0)).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    expect(softmaxAt([-Infinity, -Infinity], 1)).toBe(0.5);
  });
});

describe('member / non-member designs', () => {
  const records = Array.from({ length: 100 }, (_, i) => ({ text: `record ${i}`, label: i % 2 ? 'spam' : 'ham' }));

  it('baseline: disjoint prompts; members are the demonstrations; 1:4 when unbalanced', () => {
    const prompts = baselineDesign(records, 4, 12, 'unbalanced', seededRandom(1));
    expect(prompts).toHaveLength(3);
    const all = prompts.flatMap((p) => p.candidates.map((c) => c.text));
    expect(new Set(all).size).toBe(all.length);
    for (const p of prompts) {
      expect(p.candidates.filter((c) => c.member).map((c) => c.text)).toEqual(p.demonstrations.map((d) => d.text));
      expect(p.candidates.filter((c) => !c.member)).toHaveLength(16);
    }
    expect(() => baselineDesign(records.slice(0, 5), 4, 4, 'balanced', seededRandom(1))).toThrow(/too few records/);
  });

  it('pool: members from the pool, non-members from outside it', () => {
    const outside = records.map((r) => ({ ...r, text: `outside ${r.text}` }));
    const candidates = poolDesign(records, outside, 30, 'balanced', seededRandom(2));
    expect(candidates.filter((c) => c.member).every((c) => c.text.startsWith('record'))).toBe(true);
    expect(candidates.filter((c) => !c.member).every((c) => c.text.startsWith('outside'))).toBe(true);
    expect(candidates).toHaveLength(60);
  });
});

describe('canaries and the working copy', () => {
  it('canaries are made-up words with public labels and fair inclusion coins', () => {
    const canaries = makeCanaries(400, ['spam', 'ham'], seededRandom(3));
    const included = canaries.filter((c) => c.included).length;
    expect(Math.abs(included - 200)).toBeLessThan(4 * 10); // Binomial(400, ½): s.d. 10
    expect(new Set(canaries.map((c) => c.text)).size).toBe(400);
    expect(canaries.every((c) => c.label === 'spam' || c.label === 'ham')).toBe(true);
  });

  it('the working copy counts each canary as a unit and samples it like the others', async () => {
    const pool = poolWithCanaries(inMemoryPool(['a', 'b']), [{ text: 'canary' }]);
    expect(pool.units).toBe(3);
    const teachers = await pool.sampleTeachers(1, 2, seededRandom(4));
    expect(teachers.flat().map((r) => r.text).sort()).toEqual(['a', 'b', 'canary']);
  });
});
