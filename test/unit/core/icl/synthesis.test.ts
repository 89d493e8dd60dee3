import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { composed, gaussian, poissonSampled, sequence, type PrivacyEvent } from '../../../../core/accounting/events';
import { generateDemonstration } from '../../../../core/icl/demonstration';
import { tangAggregator } from '../../../../core/icl/dpFewShot';
import { inMemoryPool, type PoolRecord, type PrivatePool } from '../../../../core/icl/privatePool';
import { defaultTemplate, renderFewShotPrompt } from '../../../../core/icl/prompts';
import { synthesizeDemonstrations, type SynthesisProgress } from '../../../../core/icl/synthesize';
import { jobEvent, poolEvent, spreadShots } from '../../../../core/icl/synthesisPlan';
import { teacherCapacity, teacherVectors } from '../../../../core/icl/teacherEnsemble';
import { poissonSampleAssign } from '../../../../core/mechanisms/poissonSampling';
import { allowSeededOnPrivatePath } from '../../../../core/random/privatePathRandom';
import { seededRandom as seeded } from '../../../../core/random/seededRandom';
import { fakeModel, scriptedModel, specialTokenModel } from './fakeModel';

const template = defaultTemplate('Classify the e-mail.');
const shape = { teachers: 5, perTeacher: 2, topK: 3, maxTokens: 6 };
/** Seeded, explicitly opted in on the private path: these tests replay fixed streams. */
const seededRandom = (seed: number) => allowSeededOnPrivatePath(seeded(seed), 'test');
const texts = Array.from({ length: 40 }, (_, i) => (i % 2 ? `alpha note ${i}` : `beta note ${i}`));

/** A pool that replays one fixed assignment of units to teachers. */
function fixedPool(units: readonly string[], teacherOf: readonly number[], teachers: number): PrivatePool {
  return {
    units: units.length,
    sampleTeachers: async () => {
      const groups: PoolRecord[][] = Array.from({ length: teachers }, () => []);
      units.forEach((text, i) => groups[teacherOf[i]].push({ text }));
      return groups;
    },
  };
}

describe('teacher ensemble', () => {
  it('adding one record changes at most one teacher vector, with the per-teacher cap binding', async () => {
    const random = seededRandom(7);
    const cap = teacherCapacity(1);
    let capBound = 0;
    for (let trial = 0; trial < 20; trial++) {
      // Sample D' = D ∪ {x} (x = unit 0, first in its teacher's group, so always inside the cap);
      // D is the same draw with x removed. ~4.8 records per teacher against a cap of 3: a cap
      // over all teachers together (or a sampler splitting units) would change several.
      const { units, teacher } = poissonSampleAssign(texts.length, 0.6, 5, random);
      const withX = fixedPool([...units].map((u) => texts[u]), [...teacher], 5);
      const keep = [...units].map((u, i) => [u, i]).filter(([u]) => u !== 0).map(([, i]) => i);
      const withoutX = fixedPool(keep.map((i) => texts[units[i]]), keep.map((i) => teacher[i]), 5);
      const common = { model: fakeModel(), template, label: 'spam', soFar: 'a', candidates: [0, 1, 2], q: 0.6, teachers: 5, perTeacher: 1, random };
      const [a, b] = await Promise.all([teacherVectors({ ...common, pool: withX }), teacherVectors({ ...common, pool: withoutX })]);
      const changed = a.filter((v, m) => v.some((x, j) => x !== b[m][j])).length;
      expect(changed).toBeLessThanOrEqual(1);
      if (Array.from({ length: 5 }, (_, m) => [...teacher].filter((t) => t === m).length).some((n) => n > cap)) capBound++;
    }
    expect(capBound).toBeGreaterThan(10);
  });

  it('builds teacher prompts with the public label and never another record label', async () => {
    const prompts: string[] = [];
    const pool = inMemoryPool(texts);
    await teacherVectors({ model: fakeModel(prompts), template, pool, label: 'spam', soFar: '', candidates: [0, 1], q: 0.5, teachers: 3, perTeacher: 4, random: seededRandom(1) });
    expect(prompts).toHaveLength(3);
    for (const p of prompts) expect(p.match(/Label: (\w+)/g)?.every((l) => l === 'Label: spam')).toBe(true);
  });

  it('caps every teacher at 2N + 1 records', async () => {
    const prompts: string[] = [];
    // q = 1: all 40 records are sampled, about 13 per teacher, so the cap binds.
    await teacherVectors({ model: fakeModel(prompts), template, pool: inMemoryPool(texts), soFar: '', candidates: [0, 1], q: 1, teachers: 3, perTeacher: 2, random: seededRandom(2) });
    for (const p of prompts) expect(p.split('Text:').length - 2).toBe(5);
  });
});

describe('token loop', () => {
  it('runs at most T_max steps and reports every emitted token', async () => {
    const seen: number[] = [];
    const demo = await generateDemonstration({
      model: fakeModel(), template, pool: inMemoryPool(texts), label: 'ham', shape,
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1 }), random: seededRandom(4), onToken: (_t, step) => seen.push(step),
    });
    expect(demo.steps).toBeLessThanOrEqual(shape.maxTokens);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    expect(demo.text).toMatch(/^[abc]*$/);
  });

  it('stops when cancelled, before the next token step', async () => {
    const controller = new AbortController();
    const steps: number[] = [];
    const run = generateDemonstration({
      model: fakeModel(), template, pool: inMemoryPool(texts), shape: { ...shape, maxTokens: 1000 },
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1 }), random: seededRandom(5), signal: controller.signal,
      onToken: (_t, step) => {
        steps.push(step);
        if (step === 3) controller.abort();
      },
    });
    // The abort's own reason (a DOMException named AbortError), not some other failure.
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(steps).toEqual([1, 2, 3]); // top-3 of the fake never holds the newline: only the abort ends it
  });

  it('releases no U+FFFD from byte tokens that make no whole character', async () => {
    const model = scriptedModel([{ text: '<0xC3>', byte: 0xc3 }, { text: 'x' }], { '': [9, 1], '\uFFFD': [1, 9], '\uFFFDx': [9, 1] });
    const demo = await generateDemonstration({
      model, template, pool: inMemoryPool(texts), label: 'ham', shape: { ...shape, topK: 2, maxTokens: 3 },
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1e-9 }), random: seededRandom(9),
    });
    expect(demo).toEqual({ text: 'x', steps: 3 });
  });

  it('does not start a demonstration with its own label, which may still follow later', async () => {
    const model = scriptedModel([{ text: ' Ham' }, { text: ' Hello' }], { '': [9, 1], Hello: [9, 1] });
    const demo = await generateDemonstration({
      model, template, pool: inMemoryPool(texts), label: 'ham', shape: { ...shape, topK: 2, maxTokens: 2 },
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1e-9 }), random: seededRandom(8),
    });
    expect(demo).toEqual({ text: 'Hello Ham', steps: 2 });
  });

  it('ends a text where the template\'s next field would begin ("Label:" written inside it)', async () => {
    const vocabulary = [{ text: 'Hi' }, { text: ' you' }, { text: 'Label:' }, { text: ' more' }];
    const model = scriptedModel(vocabulary, { '': [9, 1, 1, 1], Hi: [1, 9, 1, 1], 'Hi you': [1, 1, 9, 1] });
    const demo = await generateDemonstration({
      model, template, pool: inMemoryPool(texts), label: 'ham', shape: { ...shape, topK: 4, maxTokens: 10 },
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1e-9 }), random: seededRandom(7),
    });
    expect(demo).toEqual({ text: 'Hi you', steps: 3 });
  });

  it('never starts with an end or a control token, never writes one, stops at the end token and decodes byte tokens together', async () => {
    const shown: string[] = [];
    const demo = await generateDemonstration({
      model: specialTokenModel(), template, pool: inMemoryPool(texts), label: 'ham', shape: { ...shape, topK: 5, maxTokens: 10 },
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1e-9 }), random: seededRandom(6), onToken: (text) => shown.push(text),
    });
    // Step 1: "<eos>" and "<s>" lead but are skipped; then the two bytes of "é"; then "<s>" leads again, so "<eos>" ends it.
    expect(demo).toEqual({ text: 'a\u00E9', steps: 4 });
    expect(shown).toEqual(['a', 'a\uFFFD', 'a\u00E9']);
  });
});

describe('synthesis plan', () => {
  it('spreads shots over the public labels and keeps generation tasks in one pool', () => {
    expect(spreadShots(4, ['spam', 'ham'])).toEqual([{ label: 'spam', demonstrations: 2 }, { label: 'ham', demonstrations: 2 }]);
    expect(spreadShots(3, ['a', 'b', 'c', 'd'])).toEqual([
      { label: 'a', demonstrations: 1 }, { label: 'b', demonstrations: 1 }, { label: 'c', demonstrations: 1 },
    ]);
    expect(spreadShots(2, undefined)).toEqual([{ demonstrations: 2 }]);
  });

  it('charges T_max steps per demonstration: for records one event dominating every pool, for subjects all pools', () => {
    const agg = tangAggregator({ kind: 'gaussian', sigma: 2 });
    const pools = [{ label: 'spam', units: 100, demonstrations: 2 }, { label: 'ham', units: 400, demonstrations: 3 }];
    expect(poolEvent(pools[0], shape, agg)).toEqual(composed(agg.stepEvent(0.1), 12));
    // The largest rate (10 / 100 units) and the most steps (3 demonstrations × 6 tokens).
    expect(jobEvent(pools, shape, agg, 'record')).toEqual(composed(agg.stepEvent(0.1), 18));
    expect(jobEvent(pools, shape, agg, 'subject')).toEqual(sequence(pools.map((p) => poolEvent(p, shape, agg))));
  });

  it('charges an event whose privacy curve dominates every pool’s, alone and composed with other releases', () => {
    // Pools whose curves cross: the smaller pool has the larger ε alone at δ = 1e-5, the
    // other has more steps and the larger ε once composed with 1,000 other releases — so
    // charging only the pool worst at the job's δ under-charged the ledger (by ≈ 0.015 in ε).
    const agg = tangAggregator({ kind: 'gaussian', sigma: 2 });
    const wide = { teachers: 10, perTeacher: 4, topK: 3, maxTokens: 20 };
    const pools = [{ label: 'a', units: 400, demonstrations: 1 }, { label: 'b', units: 540, demonstrations: 2 }];
    const charged = jobEvent(pools, wide, agg, 'record');
    const other = composed(poissonSampled(0.05, gaussian(2, 1)), 1000);
    const epsilon = (event: PrivacyEvent, delta: number) => accountEpsilon(event, delta, { crossCheck: false }).bounds;
    for (const delta of [1e-3, 1e-5, 1e-7]) {
      for (const pool of pools) {
        const alone = poolEvent(pool, wide, agg);
        // A sound charge has true ε(charged) ≥ true ε(pool), so certified upper ≥ certified lower.
        expect(epsilon(charged, delta).upper).toBeGreaterThanOrEqual(epsilon(alone, delta).lower);
        expect(epsilon(sequence([charged, other]), delta).upper).toBeGreaterThanOrEqual(epsilon(sequence([alone, other]), delta).lower);
      }
    }
  }, 60_000);

  it('synthesises every demonstration with progress up to the charged maximum', async () => {
    const progress: SynthesisProgress[] = [];
    const pools = spreadShots(4, ['spam', 'ham']).map((p, i) => ({
      plan: { ...p, units: 20 },
      pool: inMemoryPool(texts.filter((_, j) => j % 2 === i)),
    }));
    const demos = await synthesizeDemonstrations({
      model: fakeModel(), template, pools, shape, aggregator: tangAggregator({ kind: 'gaussian', sigma: 1 }),
      random: seededRandom(6), onProgress: (p) => progress.push(p),
    });
    expect(demos.map((d) => d.label)).toEqual(['spam', 'ham', 'spam', 'ham']);
    const last = progress.at(-1)!;
    expect(last).toMatchObject({ demonstrationsDone: 4, demonstrationsTotal: 4, stepsMax: 24 });
    expect(last.stepsDone).toBeLessThanOrEqual(24);
  });

  it('writes a generation demonstration in two phases, the output from teachers shown reference outputs, all steps charged', async () => {
    const teacherPrompts: string[] = [];
    const publicPrompts: string[] = [];
    const model = fakeModel(teacherPrompts);
    const top = model.topNextTokens.bind(model);
    model.topNextTokens = (prompt, k, signal) => (publicPrompts.push(String(prompt)), top(prompt, k, signal));
    const records = Array.from({ length: 20 }, (_, i) => ({ text: `alpha note ${i}`, output: `beta summary ${i}` }));
    const progress: SynthesisProgress[] = [];
    const plan = { units: 20, demonstrations: 1 };
    const [demo] = await synthesizeDemonstrations({
      model, template, pools: [{ plan, pool: inMemoryPool(records) }], shape,
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 0.5 }), random: seededRandom(12), onProgress: (p) => progress.push(p),
    });
    expect(demo.label).toBeUndefined();
    expect(demo.output).toEqual(expect.any(String));
    // The output phase's prompts continue the synthetic input after "Output:"; teachers see their records' outputs.
    const outputPhase = (p: string) => p.includes(`Text: ${demo.text}\nOutput: `);
    expect(publicPrompts.filter(outputPhase).length).toBeGreaterThan(0);
    expect(publicPrompts.every((p) => !p.includes('note') && !p.includes('summary'))).toBe(true);
    const teachersOnOutput = teacherPrompts.filter(outputPhase);
    expect(teachersOnOutput.some((p) => /Text: alpha note \d+\nOutput: beta summary \d+\n/.test(p))).toBe(true);
    // Charged and reported: 2·T_max steps for the one demonstration.
    expect(progress.at(-1)).toMatchObject({ stepsMax: 2 * shape.maxTokens });
    expect(poolEvent(plan, shape, tangAggregator({ kind: 'gaussian', sigma: 0.5 }))).toMatchObject({ count: 2 * shape.maxTokens });
    expect(renderFewShotPrompt(template, [demo])).toBe(`${template.instruction}\n\nText: ${demo.text}\nOutput: ${demo.output}\n`);
  });

  it('samples each pool at the rate it was priced at, even when the pool shrank since', async () => {
    const rates: number[] = [];
    const shrunk = inMemoryPool(texts.slice(0, 10));
    const pool: PrivatePool = { units: shrunk.units, sampleTeachers: (q, m, random) => (rates.push(q), shrunk.sampleTeachers(q, m, random)) };
    await synthesizeDemonstrations({
      model: fakeModel(), template, pools: [{ plan: { label: 'spam', units: 40, demonstrations: 1 }, pool }], shape,
      aggregator: tangAggregator({ kind: 'gaussian', sigma: 1 }), random: seededRandom(8),
    });
    // Priced at 40 units: q = 5 · 2 / 40 = 0.25 (the 10 units left would give 1).
    expect(rates.length).toBeGreaterThan(0);
    expect(new Set(rates)).toEqual(new Set([0.25]));
  });
});
