/**
 * The cutting rule for audit prompts longer than the model's context: whole paragraphs from
 * the left (the instruction, then the oldest demonstrations), the least cut that fits, the
 * query never cut, the same rule whatever the candidate's membership; and the counts per arm.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutFromLeft, cutPoints, QueryTooLongError } from '../../../../core/audit/promptFit';
import { runAttacks } from '../../../../core/audit/runAudit';
import { promptTarget } from '../../../../core/audit/target';
import { defaultTemplate, renderFewShotPrompt } from '../../../../core/icl/prompts';
import type { LanguageModel } from '../../../../core/model/languageModel';
import { ADDED_TOKENS_MARGIN } from '../../../../core/model/tokenBound';
import { seededRandom } from '../../../../core/random/seededRandom';

const template = defaultTemplate('Classify the text.');
const demos = ['alpha', 'bravo', 'charlie', 'delta'].map((w, i) => ({ text: `${w} ${w} ${w}`, label: i % 2 ? 'spam' : 'ham' }));
const prompt = renderFewShotPrompt(template, demos);

/** One token per character; scoreLabels records the prompt it was asked with and prefers "ham" on a prompt holding the text. */
function charModel(contextLength: number | null) {
  const asked: string[] = [];
  const model = {
    info: { contextLength },
    capabilities: { tokenize: true },
    tokenize: async (text: string) => Array.from(text, () => 0),
    scoreLabels: async (query: string) => {
      asked.push(query);
      return [0, -1];
    },
  } as unknown as LanguageModel;
  return { model, asked };
}

describe('cut points and the least cut from the left', () => {
  it('cuts only at paragraph starts, and may keep nothing', () => {
    const text = 'head\n\none\nL\n\n\ntwo\nL\n';
    expect(cutPoints(text).map((p) => text.slice(p))).toEqual([text, 'one\nL\n\n\ntwo\nL\n', 'two\nL\n', '']);
    expect(cutPoints('')).toEqual([0]);
  });

  it('a prompt that fits is unchanged; otherwise the oldest paragraphs go first', async () => {
    const fitsIn = (n: number) => async (p: string) => p.length <= n;
    expect(await cutFromLeft(prompt, fitsIn(prompt.length))).toEqual({ prompt, cut: false });
    const cut = (await cutFromLeft(prompt, fitsIn(prompt.length - 1)))!;
    expect(cut).toEqual({ prompt: prompt.slice(prompt.indexOf('Text: alpha')), cut: true });
    const last = (await cutFromLeft(prompt, fitsIn(40)))!.prompt;
    expect(last).toBe('Text: delta delta delta\nLabel: spam\n');
    expect(await cutFromLeft(prompt, fitsIn(10))).toEqual({ prompt: '', cut: true });
    expect(await cutFromLeft(prompt, async () => false)).toBeNull();
  });

  it('property: the result is the longest whole-paragraph suffix that fits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.stringMatching(/^[a-z ]{1,12}$/), { maxLength: 12 }), fc.nat(120), async (paragraphs, budget) => {
        const text = paragraphs.join('\n\n');
        const fits = async (p: string) => p.length <= budget;
        const fitted = (await cutFromLeft(text, fits))!;
        const suffixes = cutPoints(text).map((p) => text.slice(p));
        expect(suffixes).toContain(fitted.prompt);
        expect(fitted.prompt).toBe(suffixes.find((s) => s.length <= budget));
        expect(fitted.cut).toBe(fitted.prompt !== text);
      }),
    );
  });
});

describe('a prompt target on a small context', () => {
  it('keeps the query whole and the most recent demonstrations, and counts the cut queries', async () => {
    const { model, asked } = charModel(110);
    const target = promptTarget(model, template, prompt);
    const text = 'echo echo echo echo';
    await target.classify!(text, ['ham', 'spam']);
    const query = asked[0];
    // BOS + query + the longest label (" spam", 5 tokens) fit in 110.
    expect(query.length + 1 + 5).toBeLessThanOrEqual(110);
    expect(query.endsWith(`Text: ${text}\nLabel:`)).toBe(true);
    expect(query).toContain('Text: delta delta delta\nLabel: spam\n');
    expect(query).not.toContain('alpha');
    expect(query.startsWith('Text: ')).toBe(true); // cut at a paragraph start
    expect(target.cuts!()).toBe(1);
  });

  it('the cut depends on the query only: equally long member and non-member queries see the same prompt', async () => {
    const { model, asked } = charModel(120);
    const records = [
      { text: 'charlie charlie charlie', label: 'ham', member: true },
      { text: 'zulu zulu zulu zulu zul', label: 'ham', member: false },
    ];
    const result = await runAttacks({ groups: [{ target: promptTarget(model, template, prompt), candidates: records }], attacks: ['label'], model, labels: ['ham', 'spam'] }, seededRandom(1), { replicates: 100, level: 0.9 });
    const prefix = (q: string) => q.slice(0, q.lastIndexOf('Text: '));
    expect(prefix(asked[0])).toBe(prefix(asked[1]));
    expect(result[0].fit).toEqual({ cut: { members: 1, nonMembers: 1 }, leftOut: { members: 0, nonMembers: 0 } });
  });

  it('a query too long alone is left out of its score and counted; a model without a known context is never cut', async () => {
    const { model } = charModel(60);
    const long = 'x'.repeat(80);
    const candidates = [
      { text: 'short one', label: 'ham', member: true },
      { text: long, label: 'ham', member: true },
      { text: 'short two', label: 'spam', member: false },
    ];
    await expect(promptTarget(model, template, prompt).classify!(long, ['ham', 'spam'])).rejects.toThrow(QueryTooLongError);
    const [score] = await runAttacks({ groups: [{ target: promptTarget(model, template, prompt), candidates }], attacks: ['label'], model, labels: ['ham', 'spam'] }, seededRandom(1), { replicates: 100, level: 0.9 });
    expect(score.metrics).toMatchObject({ members: 1, nonMembers: 1 });
    expect(score.fit).toEqual({ cut: { members: 1, nonMembers: 1 }, leftOut: { members: 1, nonMembers: 0 } });
    // Every member left out: no score can be computed, and the error says why without quoting text.
    const onlyLong = [candidates[1], candidates[2]];
    await expect(runAttacks({ groups: [{ target: promptTarget(model, template, prompt), candidates: onlyLong }], attacks: ['label'], model, labels: ['ham', 'spam'] }, seededRandom(1))).rejects.toThrow(
      /the label attack: every member's query alone exceeds the model's context of 60 tokens/,
    );

    const unbounded = charModel(null);
    const target = promptTarget(unbounded.model, template, prompt);
    await target.classify!(long, ['ham', 'spam']);
    expect(unbounded.asked[0].startsWith(prompt)).toBe(true);
    expect(target.cuts!()).toBe(0);
  });

  it('a model that cannot tokenize is fitted by the byte bound plus the added-token margin, for both arms alike', async () => {
    const asked: string[] = [];
    const model = {
      info: { contextLength: 120 },
      capabilities: { tokenize: false },
      tokenize: async () => {
        throw new Error('no /tokenize');
      },
      scoreLabels: async (query: string) => {
        asked.push(query);
        return [0, -1];
      },
    } as unknown as LanguageModel;
    const bytes = (text: string) => new TextEncoder().encode(text).length;
    const records = [
      { text: 'café café café', label: 'ham', member: true },
      { text: 'zulu zulu zulu zu', label: 'ham', member: false }, // as many bytes as the member's
    ];
    const result = await runAttacks({ groups: [{ target: promptTarget(model, template, prompt), candidates: records }], attacks: ['label'], model, labels: ['ham', 'spam'] }, seededRandom(1), { replicates: 100, level: 0.9 });
    for (const query of asked) expect(bytes(query) + ADDED_TOKENS_MARGIN + ' spam'.length).toBeLessThanOrEqual(120);
    const prefix = (q: string) => q.slice(0, q.lastIndexOf('Text: '));
    expect(prefix(asked[0])).toBe(prefix(asked[1]));
    expect(prefix(asked[0])).toBe('Text: delta delta delta\nLabel: spam\n\n');
    expect(result[0].fit).toEqual({ cut: { members: 1, nonMembers: 1 }, leftOut: { members: 0, nonMembers: 0 } });
  });
});
