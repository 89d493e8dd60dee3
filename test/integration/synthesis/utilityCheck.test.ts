/**
 * The utility check (electron/services/synthesis/utilityCheck.ts) reads no private record and
 * scores on the held-out split only.
 *
 * 1. A spy SynthesisSource: every pool it hands out (the only way the source exposes private
 *    records) and every split asked for is recorded — a private read would leak private texts
 *    into the model's prompts, and is asserted absent. A fake model answers by query text:
 *    the held-out records right for 7 of 10, every other record right, so the accuracy is
 *    exactly 7/10 only when it is computed on the held-out records and nothing else.
 * 2. A generation task (ROUGE-L) on the real SQLite vault with the reference learner: the
 *    database and the vault service are tapped while the check runs; no row of the private
 *    split is read, the queries are the held-out inputs, and each score is the mean ROUGE-L
 *    of the generations against the held-out reference outputs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DpPromptExport } from '../../../core/export/dpPromptFormat';
import { inMemoryPool, type PrivatePool } from '../../../core/icl/privatePool';
import { defaultTemplate, renderFewShotPrompt, type Demonstration } from '../../../core/icl/prompts';
import { rougeL } from '../../../core/icl/rouge';
import type { LanguageModel } from '../../../core/model/languageModel';
import { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { Database } from '../../../electron/services/db/database';
import type { JobContext } from '../../../electron/services/jobs/jobManager';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from '../../../electron/services/synthesis/synthesisSource';
import { evaluateUtility } from '../../../electron/services/synthesis/utilityCheck';
import { promptUtility } from '../../../core/icl/utility';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { vaultSource } from '../../../electron/services/synthesis/vaultSource';
import { withServices } from '../../../electron/cli/withServices';
import { sampleDataDir } from './sampleDataDir';
import { VaultService } from '../../../electron/services/vault/vaultService';

/** The last query of a prompt built by classificationQuery: "…\n<inputPrefix> <text>\n<labelPrefix>". */
const queryOf = (prompt: string, labelPrefix: string) => {
  const match = new RegExp(`\\nText: ([^\\n]*)\\n${labelPrefix}$`).exec(prompt);
  if (!match) throw new Error(`not a query prompt: ${JSON.stringify(prompt.slice(-80))}`);
  return match[1];
};
/** The demonstrations of the few-shot block before the query (usage order: text, then label). */
const fewShotOf = (prompt: string) => prompt.slice(0, prompt.lastIndexOf('\nText: '));

const job = (): JobContext => ({ id: 'utility-test', signal: new AbortController().signal, progress: () => undefined, throwIfCancelled: () => undefined });

describe('utility check with a spy source (classification)', () => {
  const labels = ['spam', 'ham'];
  const dataset: SynthesisDataset = { id: 7, name: 'mail', createdAt: '2026-01-01T00:00:00.000Z', task: 'classification', labels, privacyUnit: 'record' };
  const other = (label: string) => (label === 'spam' ? 'ham' : 'spam');
  // Held-out: 11 records, one without a label (skipped); the model is right on the first 7 labelled ones.
  const heldOut: LabelledExample[] = Array.from({ length: 11 }, (_, i) => ({
    text: `held-out message number ${i} about invoices`,
    label: i === 2 ? null : labels[i % 2],
    output: null,
  }));
  const publicSplit: LabelledExample[] = Array.from({ length: 6 }, (_, i) => ({ text: `public example ${i} of the label set`, label: labels[i % 2], output: null }));
  const privateSplit = Array.from({ length: 30 }, (_, i) => ({ text: `private record ${i} with account 55${i}0 of a customer`, label: labels[i % 2] }));
  const labelled = heldOut.filter((e) => e.label !== null);
  const rightOn = new Set(labelled.slice(0, 7).map((e) => e.text));

  /** The answer the fake model gives to a query text. */
  const answer = (text: string): string => {
    const held = heldOut.find((e) => e.text === text);
    if (held) return rightOn.has(text) ? held.label! : other(held.label!);
    const known = [...publicSplit, ...privateSplit].find((e) => e.text === text);
    return known?.label ?? 'spam';
  };

  function spySource() {
    const reads = { pools: [] as (string | undefined)[], sampled: 0, splits: [] as { split: string; limit: number }[] };
    const source: SynthesisSource = {
      dataset: async () => dataset,
      // Hands out a working pool over the private split, so a reader would really get private texts.
      pool: async (_d, label): Promise<PrivatePool> => {
        reads.pools.push(label);
        const inner = inMemoryPool(privateSplit.filter((r) => label === undefined || r.label === label).map((r) => r.text));
        return { units: inner.units, sampleTeachers: (q, m, random) => (reads.sampled++, inner.sampleTeachers(q, m, random)) };
      },
      examples: async (_d, split, limit) => {
        reads.splits.push({ split, limit });
        if (split === 'held-out') return heldOut.slice(0, limit);
        if (split === 'public') return publicSplit.slice(0, limit);
        return privateSplit.slice(0, limit).map((r) => ({ ...r, output: null }));
      },
    };
    return { source, reads };
  }

  function fakeModel() {
    const prompts: string[] = [];
    const unsupported = () => Promise.reject(new Error('not in the fake'));
    const model: LanguageModel = {
      info: { backend: 'reference', name: 'fake', kind: 'baseline', vocabularySize: 1, contextLength: null, embeddingDimension: null },
      capabilities: {
        tokenize: false, fullDistribution: false, restrictedDistribution: false, batchedEvaluation: false,
        generate: false, scoreLabels: true, embeddings: false, maxTopTokens: null,
      },
      tokenize: unsupported, detokenize: unsupported, tokenText: unsupported, nextTokenDistribution: unsupported,
      nextTokenDistributions: unsupported, topNextTokens: unsupported, generate: unsupported, embed: unsupported,
      scoreLabels: async (prompt, options) => {
        prompts.push(prompt);
        const said = answer(queryOf(prompt, 'Label:'));
        return options.map((l) => (l === ` ${said}` ? 0 : -1)); // scored as the demonstrations write them, after a space
      },
      close: async () => undefined,
    };
    return { model, prompts };
  }

  const template = defaultTemplate('Classify each text as one of: spam, ham.');
  const synthetic: Demonstration[] = [
    { text: 'win a free prize now', label: 'spam' },
    { text: 'meeting notes for tuesday', label: 'ham' },
    { text: 'cheap pills online', label: 'spam' },
  ];
  const document = { demonstrations: synthetic, certificate: { parameters: { template } } } as unknown as DpPromptExport;

  it('reads no private record, and scores exactly the held-out records (7 of 10 right)', async () => {
    const { source, reads } = spySource();
    const { model, prompts } = fakeModel();
    const utility = await evaluateUtility({ model, dataset, document, source, limit: 40, job: job() });
    expect(utility.labels).toEqual({ ham: 5, spam: 5 });
    expect(utility.mostCommon).toEqual({ label: 'ham', accuracy: 0.5 });

    expect(reads.pools).toEqual([]);
    expect(reads.sampled).toBe(0);
    expect(reads.splits).toEqual(expect.arrayContaining([{ split: 'held-out', limit: 40 }]));
    for (const { split } of reads.splits) expect(['held-out', 'public']).toContain(split);
    for (const prompt of prompts) for (const r of privateSplit) expect(prompt).not.toContain(r.text);

    expect(utility).toMatchObject({ metric: 'accuracy', examples: 10 });
    expect([utility.synthetic, utility.zeroShot, utility.realPublic]).toEqual([0.7, 0.7, 0.7]);

    // Three runs over the same held-out queries, in order: synthetic, zero-shot, real public.
    expect(prompts).toHaveLength(30);
    const queries = prompts.map((p) => queryOf(p, 'Label:'));
    for (let run = 0; run < 3; run++) expect(queries.slice(run * 10, run * 10 + 10)).toEqual(labelled.map((e) => e.text));
    const blocks = prompts.map((p) => fewShotOf(p));
    for (const block of blocks.slice(0, 10)) expect(block).toBe(renderFewShotPrompt(template, synthetic));
    for (const block of blocks.slice(10, 20)) expect(block).toBe(renderFewShotPrompt(template, []));
    // The reference: real PUBLIC demonstrations, one per synthetic demonstration, with its label.
    for (const block of blocks.slice(20)) {
      const shots = [...block.matchAll(/Text: ([^\n]*)\nLabel: ([^\n]*)\n/g)].map((m) => ({ text: m[1], label: m[2] }));
      expect(shots.map((s) => s.label)).toEqual(synthetic.map((d) => d.label));
      for (const shot of shots) expect(publicSplit).toContainEqual({ text: shot.text, label: shot.label, output: null });
    }
  });

  it('asks the source for at most `limit` held-out records and scores those only', async () => {
    const { source, reads } = spySource();
    const { model, prompts } = fakeModel();
    const utility = await evaluateUtility({ model, dataset, document, source, limit: 5, job: job() });
    expect(reads.splits.find((s) => s.split === 'held-out')).toEqual({ split: 'held-out', limit: 5 });
    expect(reads.pools).toEqual([]);
    // Records 0…4, record 2 unlabelled: 4 queries, all among the 7 answered right.
    expect(utility).toMatchObject({ examples: 4, synthetic: 1, zeroShot: 1, realPublic: 1 });
    expect(new Set(prompts.map((p) => queryOf(p, 'Label:')))).toEqual(new Set(heldOut.slice(0, 5).filter((e) => e.label).map((e) => e.text)));
  });

  it('has no real-demonstration reference when the public split lacks a needed label', async () => {
    const { source, reads } = spySource();
    const onlyHam: SynthesisSource = { ...source, examples: async (d, split, limit) => (split === 'public' ? publicSplit.filter((e) => e.label === 'ham') : source.examples(d, split, limit)) };
    const { model, prompts } = fakeModel();
    const utility = await evaluateUtility({ model, dataset, document, source: onlyHam, limit: 40, job: job() });
    expect(utility.realPublic).toBeNull();
    expect(prompts).toHaveLength(20);
    expect(reads.pools).toEqual([]);
  });
});

describe('utility check of a generation task on the real vault (ROUGE-L, reference learner)', () => {
  let dir: string;
  let ctx: ServiceContext;
  const words = ['river', 'lamp', 'orange', 'window', 'garden', 'copper', 'violin', 'meadow', 'planet', 'harbor', 'candle', 'pepper'];
  const phrase = (i: number, n: number) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 5) % words.length]).join(' ');
  const privateRecords = Array.from({ length: 80 }, (_, i) => ({ text: `private note ${i}: ${phrase(i, 8)} patient ${1000 + i}`, output: `summary ${phrase(i, 3)}`, split: 'private' as const }));
  const publicRecords = Array.from({ length: 10 }, (_, i) => ({ text: `public note ${i}: ${phrase(i + 100, 8)}`, output: `summary ${phrase(i + 100, 3)}`, split: 'public' as const }));
  // Held-out: 12 records, two without a reference output (skipped).
  const heldOutRecords = Array.from({ length: 12 }, (_, i) => ({
    text: `held-out note ${i}: ${phrase(i + 200, 8)}`,
    ...(i === 3 || i === 9 ? {} : { output: `summary ${phrase(i + 200, 3)}` }),
    split: 'held-out' as const,
  }));
  const privateTexts = privateRecords.map((r) => r.text);
  let runId: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'veil-utility-'));
    ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
    await callMethod(ctx, 'vault.createDataset', { name: 'notes', task: 'generation' });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records: [...privateRecords, ...publicRecords, ...heldOutRecords] });
    await callMethod(ctx, 'budget.set', { dataset: 'notes', epsilon: 8, delta: 1e-5 });
    const started = await callMethod(ctx, 'synth.start', { dataset: 'notes', shots: 2, teachers: 4, perTeacher: 2, topK: 12, maxTokens: 6, epsilon: 3 });
    expect((await ctx.jobs.wait(started.jobId)).status).toBe('succeeded');
    runId = started.runId;
  }, 120_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads no private row, queries the held-out inputs and scores ROUGE-L against their outputs', async () => {
    const { rows: stored } = await callMethod(ctx, 'vault.records', { dataset: 'notes', filter: { splits: ['private'] }, limit: 1000 });
    expect(stored.map((r) => r.text).sort()).toEqual([...privateTexts].sort());
    const privateIds = new Set(stored.map((r) => r.id));
    const document = (await callMethod(ctx, 'synth.get', { id: runId })).document!;
    // Synthetic generation demonstrations have an input and an output, each written privately.
    expect(document.demonstrations.every((d) => d.label === undefined && typeof d.output === 'string')).toBe(true);

    // Tap every row the database hands out, the vault's private pools, and the model.
    const rowsRead: Record<string, unknown>[] = [];
    for (const method of ['all', 'get'] as const) {
      const original = Database.prototype[method];
      vi.spyOn(Database.prototype, method).mockImplementation(async function (this: Database, sql: string, params?: Record<string, unknown>) {
        const result = await original.call(this, sql, params);
        rowsRead.push(...((Array.isArray(result) ? result : result ? [result] : []) as Record<string, unknown>[]));
        return result;
      } as never);
    }
    const each = Database.prototype.each;
    vi.spyOn(Database.prototype, 'each').mockImplementation(function (this: Database, sql: string, params: Record<string, unknown>, onRow: (row: unknown) => void) {
      return each.call(this, sql, params, (row: unknown) => (rowsRead.push(row as Record<string, unknown>), onRow(row)));
    } as never);
    const pool = vi.spyOn(VaultService.prototype, 'pool');
    const generate = vi.spyOn(ReferenceLearner.prototype, 'generate');
    const scoreLabels = vi.spyOn(ReferenceLearner.prototype, 'scoreLabels');

    const { jobId } = await callMethod(ctx, 'synth.evaluate', { id: runId, limit: 40 });
    expect((await ctx.jobs.wait(jobId)).status).toBe('succeeded');
    const { utility } = await callMethod(ctx, 'synth.get', { id: runId });

    expect(pool).not.toHaveBeenCalled();
    expect(rowsRead.length).toBeGreaterThan(0);
    for (const row of rowsRead) {
      if (typeof row.id === 'number' && 'text' in row) expect(privateIds.has(row.id)).toBe(false);
      for (const value of Object.values(row)) if (typeof value === 'string') for (const text of privateTexts) expect(value.includes(text)).toBe(false);
    }
    expect(scoreLabels).not.toHaveBeenCalled();

    const labelled = heldOutRecords.filter((r) => r.output !== undefined);
    expect(utility).toMatchObject({ metric: 'rouge-l', examples: labelled.length });
    expect(generate).toHaveBeenCalledTimes(3 * labelled.length);
    const calls = await Promise.all(generate.mock.calls.map(async ([prompt], i) => ({ prompt: String(prompt), text: (await generate.mock.results[i].value).text as string })));
    for (const { prompt } of calls) for (const text of privateTexts) expect(prompt.includes(text)).toBe(false);
    const stages = [0, 1, 2].map((s) => calls.slice(s * labelled.length, (s + 1) * labelled.length));
    // Every labelled held-out input is queried once per stage, in the sample's order (the same for all three).
    const queried = stages[0].map((c) => queryOf(c.prompt, 'Output:'));
    expect([...queried].sort()).toEqual(labelled.map((r) => r.text).sort());
    for (const stage of stages) expect(stage.map((c) => queryOf(c.prompt, 'Output:'))).toEqual(queried);
    const scored = queried.map((text) => labelled.find((r) => r.text === text)!);
    const template = document.certificate.parameters.template as ReturnType<typeof defaultTemplate>;
    for (const c of stages[0]) expect(fewShotOf(c.prompt)).toBe(renderFewShotPrompt(template, document.demonstrations));
    for (const c of stages[1]) expect(fewShotOf(c.prompt)).toBe(renderFewShotPrompt(template, []));
    for (const c of stages[2]) {
      const shots = [...fewShotOf(c.prompt).matchAll(/Text: ([^\n]*)\n/g)].map((m) => m[1]);
      expect(shots).toHaveLength(document.demonstrations.length);
      for (const shot of shots) expect(publicRecords.map((r) => r.text)).toContain(shot);
      // Real generation demonstrations show their reference outputs, like the synthetic ones.
      const outputs = [...fewShotOf(c.prompt).matchAll(/Output: ([^\n]*)\n/g)].map((m) => m[1]);
      expect(outputs).toEqual(shots.map((shot) => publicRecords.find((r) => r.text === shot)!.output));
    }
    // Each score is the mean ROUGE-L of that stage's generations against the held-out outputs.
    const mean = (stage: typeof calls) => stage.reduce((sum, c, i) => sum + rougeL(c.text, scored[i].output!), 0) / scored.length;
    expect(utility!.synthetic).toBeCloseTo(mean(stages[0]), 12);
    expect(utility!.zeroShot).toBeCloseTo(mean(stages[1]), 12);
    expect(utility!.realPublic).toBeCloseTo(mean(stages[2]), 12);
  }, 120_000);
});

describe('held-out and public examples from the vault', () => {
  let sample: { dir: string; data: string };
  beforeAll(async () => {
    sample = await sampleDataDir('veil-examples-');
  }, 120_000);
  afterAll(() => rmSync(sample.dir, { recursive: true, force: true }));

  it('are a uniform sample of the split, not its first rows (the sample e-mails were imported one label after another)', async () => {
    await withServices(sample.data, async (ctx) => {
      const source = await vaultSource(ctx);
      const dataset = await source.dataset('mail');
      const { rows } = await callMethod(ctx, 'vault.records', { dataset: 'mail', filter: { splits: ['held-out'] }, limit: 1000 });
      const total = (await callMethod(ctx, 'vault.records', { dataset: 'mail', filter: { splits: ['held-out'] }, limit: 1 })).total;
      const share = (examples: { label: string | null }[]) => examples.filter((e) => e.label === 'spam').length / examples.length;
      const all = await source.examples(dataset, 'held-out', 1_000_000);
      expect(all).toHaveLength(total);
      // The first 200 rows by id hold (almost) no spam; a uniform sample of 200 holds about the split's share.
      expect(share(rows.slice(0, 200))).toBeLessThan(0.05);
      const examples = await source.examples(dataset, 'held-out', 200);
      expect(examples).toHaveLength(200);
      // Hypergeometric: sd of the share ≤ 0.5/√200 ≈ 0.035; 0.15 is more than 4 sd.
      expect(Math.abs(share(examples) - share(all))).toBeLessThan(0.15);
      expect(await source.examples(dataset, 'held-out', 200)).toEqual(examples); // the same examples for every run
      expect(new Set(examples.map((e) => e.text)).size).toBe(200); // without replacement
    });
  }, 60_000);

  it('score labels as the demonstrations write them (" spam" after "Label:"), so demonstrations change the answers', async () => {
    await withServices(sample.data, async (ctx) => {
      const source = await vaultSource(ctx);
      const dataset = await source.dataset('mail');
      const examples = (await source.examples(dataset, 'held-out', 200)).map((e) => ({ text: e.text, target: e.label! }));
      const publicSplit = await source.examples(dataset, 'public', 1000);
      const shots = ['spam', 'ham'].flatMap((label) => publicSplit.filter((e) => e.label === label).slice(0, 4).map((e) => ({ text: e.text, label })));
      const request = { model: await loadReferenceLearner(), template: defaultTemplate('Classify each text as one of: spam, ham.'), task: { kind: 'classification' as const, labels: ['spam', 'ham'] }, examples };
      const zeroShot = await promptUtility(request, []);
      const eightShot = await promptUtility(request, shots);
      // Scored as "spam" right after the colon, every prompt gave the same answers (0.69 on the sample, whatever the demonstrations).
      expect(eightShot).toBeGreaterThanOrEqual(zeroShot + 0.2);
    });
  }, 120_000);
});
