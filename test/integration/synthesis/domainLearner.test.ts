/**
 * The reference learner a synthesis job uses (synthesis/domainLearner.ts) writes the
 * dataset's words and never reads the private split.
 *
 * 1. Regression guard over fixed seeds, both samples at ε = 4 with synth.start's defaults
 *    (bench/sampleUtility.ts): no demonstration holds a word that occurs in no public text
 *    of the dataset (public split, label set, instruction) nor in its private split. The
 *    old learner (a fixed e-mail background) wrote e-mail words into clinic notes
 *    ("spamassassin", "C++attinor") and fails it.
 *    Utility, the target: the DP prompt's balanced accuracy (median over the seeds)
 *    beats zero-shot by ≥ 15 points and the majority label by ≥ 10. Before the label topics,
 *    the no-repeat rule and N = 1 example per teacher, the median of 5 CSPRNG runs was 0.275
 *    (clinic) and 0.628 (e-mails), below both bars; README "Utility of DP prompts" has the table.
 * 2. Poisoned private split on the real SQLite vault: every private text is a marker word;
 *    the learner's vocabulary holds none of them and the database is only asked for the
 *    public split.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { words } from '../../../core/model/reference/words';
import { seededRandom } from '../../../core/random/seededRandom';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { defaultTemplate } from '../../../core/icl/prompts';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { Database } from '../../../electron/services/db/database';
import { domainLearner } from '../../../electron/services/synthesis/domainLearner';
import { vaultSource } from '../../../electron/services/synthesis/vaultSource';
import { measureSample, sampleLearner, sampleSetup, type SampleName, type SampleUtility } from '../../../bench/sampleUtility';
import { templateFor } from '../../../electron/services/synthesis/synthesisPricing';
import { synthesisRequestSchema } from '../../../electron/shared/api/synthesis';

const SEEDS = ['guard-1', 'guard-2', 'guard-3'];

describe.each(['clinic', 'spam'] as SampleName[])('reference learner on the %s sample (ε = 4, defaults, fixed seeds)', (name) => {
  const setup = sampleSetup(name);
  const results: SampleUtility[] = [];

  beforeAll(async () => {
    const model = await sampleLearner(setup);
    for (const seed of SEEDS) results.push(await measureSample(setup, model, allowSeededOnPrivatePath(seededRandom(seed), 'test')));
  }, 600_000);

  it('writes only words of the dataset: its public text or its private split', () => {
    const instruction = templateFor(setup.dataset, synthesisRequestSchema.parse({ dataset: setup.dataset.name, epsilon: 4 })).instruction;
    // A word, or a letter or digit run of one ("fev" of "FEV1": the learner's pieces split letters from digits).
    const runs = (text: string) => words(text).flatMap((w) => [w, ...(w.match(/\p{L}+|\p{N}+/gu) ?? [])]);
    const domain = new Set([...setup.publicRecords, ...setup.privateRecords].flatMap((r) => runs(r.text)));
    for (const w of runs([instruction, ...setup.dataset.labels].join(' '))) domain.add(w);
    const foreign = results.flatMap((r) => r.demonstrations.flatMap((d) => words(d.text).filter((w) => !domain.has(w))));
    expect(foreign).toEqual([]);
    expect(results.every((r) => r.demonstrations.length === 4)).toBe(true);
  });

  it('beats zero-shot by ≥ 15 points and the majority label by ≥ 10 points of balanced accuracy on 200 held-out records', () => {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const dp = median(results.map((r) => r.balanced.synthetic));
    expect(results.every((r) => r.examples === 200)).toBe(true);
    expect(dp).toBeGreaterThanOrEqual(median(results.map((r) => r.balanced.zeroShot)) + 0.15);
    expect(dp).toBeGreaterThanOrEqual(median(results.map((r) => r.balanced.majority)) + 0.1);
    // Four random real public demonstrations: ≥ 5 points over always answering one label (measured 0.6–0.8 on
    // e-mails, 0.4–0.55 on clinic: which four are drawn moves it by 10 points or more).
    expect(median(results.map((r) => r.balanced.realPublic))).toBeGreaterThanOrEqual(median(results.map((r) => r.balanced.majority)) + 0.05);
  });
});

describe('domain learner on a vault whose private split is poisoned', () => {
  let dir: string;
  let ctx: ServiceContext;
  const marker = (i: number) => `zqxpoison${i}marker`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'veil-domain-'));
    ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
    await callMethod(ctx, 'vault.createDataset', { name: 'notes', labels: ['a', 'b'] });
    const records = [
      ...Array.from({ length: 30 }, (_, i) => ({ text: `${marker(i)} ${marker(i + 100)}`, label: i % 2 ? 'a' : 'b', split: 'private' as const })),
      ...Array.from({ length: 8 }, (_, i) => ({ text: `public note number ${i} about the knee`, label: i % 2 ? 'a' : 'b', split: 'public' as const })),
    ];
    await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records });
  }, 60_000);
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds its background from the public split only', async () => {
    const spy = vi.spyOn(Database.prototype, 'all');
    const source = await vaultSource(ctx);
    const dataset = await source.dataset('notes');
    const learner = await domainLearner(source, dataset, defaultTemplate('Classify each text as one of: a, b.'));
    const splits = spy.mock.calls.map((c) => (c[1] as { split?: string } | undefined)?.split).filter((s) => s !== undefined);
    spy.mockRestore();
    expect(splits).toEqual(['public']);
    expect(learner.tokenizer.pieces.some((p) => p.includes('zqxpoison'))).toBe(false);
    expect(learner.tokenizer.pieces).toContain(' knee');
    expect(learner.info.name).toMatch(/background: public split of "notes"/);
    const top = await learner.topNextTokens('Classify each text as one of: a, b.\n\nLabel: a\nText:', 20);
    expect(top.some((t) => t.text.includes('zqx'))).toBe(false);
  });
});
