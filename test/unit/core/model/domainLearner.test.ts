/**
 * A domain reference learner (background from a dataset's public text): its label topics
 * (labelTopics.ts) and its no-repeat rule for candidates. Small public corpora built here;
 * expectations derived by hand from the counts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { domainBackground, labelledTexts, type DomainCorpus } from '../../../../core/model/reference/domainBackground';
import { applyLabelTopic, labelTopics } from '../../../../core/model/reference/labelTopics';
import { ReferenceLearner } from '../../../../core/model/reference/referenceLearner';
import { parseBackgroundData } from '../../../../core/model/reference/backgroundData';

const texts = [
  ...Array.from({ length: 6 }, (_, i) => ({ text: `cough and wheeze after a cold, day ${i}`, label: 'respiratory' })),
  ...Array.from({ length: 6 }, (_, i) => ({ text: `rash and itch after a cold, day ${i}`, label: 'dermatology' })),
];
const corpus: DomainCorpus = {
  name: 'notes', texts, labels: ['respiratory', 'dermatology'], instruction: 'Classify each text as one of: respiratory, dermatology.',
  inputPrefix: 'Text:', labelPrefix: 'Label:', maxChars: 400,
};

const general = parseBackgroundData(JSON.parse(readFileSync(join(process.cwd(), 'resources/model/reference-background.json'), 'utf8')));

function learner(labelled = true): ReferenceLearner {
  return new ReferenceLearner(domainBackground(corpus, general), { domain: true, labels: corpus.labels, labelled: labelled ? labelledTexts(corpus) : undefined });
}

describe('label topics', () => {
  it('raise the words of one label against all public text and lower the others (Bayes rule on the unigram, add-one smoothed)', () => {
    const topics = labelTopics([
      { label: 'a', tokens: [1, 2] },
      { label: 'b', tokens: [1, 3] },
    ]);
    // 3 types, 4 token occurrences, 2 per label: r(1) = (1+1)/(2+3) / ((2+1)/(4+3)) = 14/15; r(2) = (1+1)/5 / (2/7) = 7/5; r(3) for a = 1/5 / (2/7) = 7/10.
    expect(topics.get('a')![1]).toBeCloseTo(14 / 15, 12);
    expect(topics.get('a')![2]).toBeCloseTo(7 / 5, 12);
    expect(topics.get('a')![3]).toBeCloseTo(7 / 10, 12);
    const out = Float64Array.from([0.25, 0.25, 0.25, 0.25]);
    applyLabelTopic(topics.get('a')!, out);
    expect(out.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    expect(out[2]).toBeGreaterThan(out[0]);
    expect(out[3]).toBeLessThan(out[1]);
  });

  it('dense factors rescale exactly as the per-token lookup did (bit for bit, any vocabulary size)', () => {
    // The rule before the dense factors: a Map lookup per token, unseen tokens left alone.
    const byLookup = (factors: ReadonlyMap<number, number>, out: Float64Array) => {
      let sum = 0;
      for (let w = 0; w < out.length; w++) {
        const f = factors.get(w);
        if (f !== undefined) out[w] *= f;
        sum += out[w];
      }
      if (sum > 0) for (let w = 0; w < out.length; w++) out[w] /= sum;
    };
    const record = fc.record({ label: fc.constantFrom('a', 'b'), tokens: fc.array(fc.nat(40), { maxLength: 12 }) });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 8 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 60 }), (records, probs) => {
        const topics = labelTopics(records);
        for (const [label, dense] of topics) {
          const seen = new Set(records.flatMap((r) => r.tokens));
          const sparse = new Map([...seen].map((t) => [t, dense[t]]));
          expect(dense.every((f, t) => seen.has(t) || f === 1)).toBe(true);
          const a = Float64Array.from(probs);
          const b = Float64Array.from(probs);
          byLookup(sparse, a);
          applyLabelTopic(dense, b);
          expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer)), label).toBe(true);
        }
      }),
    );
  });

  it("make a demonstration's words those of its label, and leave a classification query as it was", async () => {
    const withTopics = learner();
    const without = learner(false);
    const head = 'Classify each text as one of: respiratory, dermatology.\n\nLabel: respiratory\nText:';
    const p = (await withTopics.topNextTokens(head, 50)).map((t) => t.text.trim());
    const q = (await withTopics.topNextTokens(head.replace('Label: respiratory', 'Label: dermatology'), 50)).map((t) => t.text.trim());
    expect(p.indexOf('cough')).toBeGreaterThanOrEqual(0);
    expect(q.indexOf('rash')).toBeGreaterThanOrEqual(0);
    expect(p.indexOf('cough') < p.indexOf('rash') || p.indexOf('rash') < 0).toBe(true);
    expect(q.indexOf('rash') < q.indexOf('cough') || q.indexOf('cough') < 0).toBe(true);
    const query = 'Classify each text as one of: respiratory, dermatology.\n\nText: cough\nLabel: respiratory\n\nText: rash and cough\nLabel:';
    expect(await withTopics.scoreLabels(query, [' respiratory', ' dermatology'])).toEqual(await without.scoreLabels(query, [' respiratory', ' dermatology']));
  });
});

describe('no-repeat rule', () => {
  it('never proposes a candidate that repeats a bigram of the line being written', async () => {
    const model = learner();
    const prompt = 'Classify each text as one of: respiratory, dermatology.\n\nLabel: respiratory\nText: cough and wheeze after a cold, day 1 and';
    const tokens = model.tokenizer.encode(prompt);
    const and = tokens[tokens.length - 1];
    const repeated = tokens[tokens.indexOf(and) + 1]; // " wheeze" followed " and" earlier in the line
    const top = await model.topNextTokens(prompt, 100);
    expect(model.tokenizer.tokenText(repeated)).toBe(' wheeze');
    expect(top.some((t) => t.token === repeated)).toBe(false);
    const fresh = await model.topNextTokens(prompt.replace('cough and wheeze', 'cough, wheeze'), 100);
    expect(fresh.some((t) => t.token === repeated)).toBe(true);
  });
});

describe('cancellation while it computes', () => {
  it('lets the event loop run, so a cancel that arrives by a timer (as a bridge request does) stops a long loop', async () => {
    const model = learner();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 0);
    const query = 'Classify each text as one of: respiratory, dermatology.\n\nText: cough\nLabel: respiratory\n\nText: rash\nLabel:';
    let calls = 0;
    const loop = async () => {
      // Without a turn of the event loop the timer never fires: all 20,000 calls would run (the old learner did).
      for (let i = 0; i < 20_000; i++, calls++) await model.scoreLabels(query, [' respiratory', ' dermatology'], controller.signal);
    };
    await expect(loop()).rejects.toThrow();
    expect(calls).toBeLessThan(20_000);
  }, 120_000);
});
