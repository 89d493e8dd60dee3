/**
 * Public-set augmentation end to end below the UI: real SQLite vault and ledger, the reference
 * learner. The ledger gets exactly the calibrated DPM event (no subsampling); over budget is
 * refused with nothing written; the generated.rows are public, tagged, never private; a marker
 * only the private split holds never reaches a generated text; the certificate is stored.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountEpsilon } from '../../../core/accounting';
import { augmentationEvent } from '../../../core/icl/augmentation/augmentationSeeds';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { getModelService } from '../../../electron/services/model/modelHandlers';
import { MARKER, notesDataDir, topics } from './notesDataset';

let ctx: ServiceContext;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, remove } = await notesDataDir('veil-augment-'));
}, 60_000);
afterAll(() => remove?.());

const reservations = async () => (await callMethod(ctx, 'ledger.entries', { dataset: 'notes' })).filter((e) => e.type === 'reserve');
const records = (splits: ('private' | 'public')[], tags?: string[]) =>
  callMethod(ctx, 'vault.records', { dataset: 'notes', filter: { splits, ...(tags ? { tags } : {}) }, limit: 500 });

describe('augmentation job', () => {
  it('reserves exactly the calibrated DPM event and writes tagged public records with a certificate', async () => {
    const plan = await callMethod(ctx, 'augment.plan', { dataset: 'notes', epsilon: 0.5, examples: 4 });
    expect(plan.event).toEqual(augmentationEvent(plan.rho, 2));
    expect(plan.epsilon.upper).toBeLessThanOrEqual(0.5);
    expect(plan.epsilon.upper).toBeGreaterThan(0.5 * 0.99);
    expect(plan.delta).toBe(1e-5);
    expect(plan).toMatchObject({ examples: 4, publicExamples: 6, warnings: [], budget: { cap: 1, spent: 0 } });
    expect(Math.abs(plan.budget!.afterJob - plan.epsilon.upper)).toBeLessThan(0.01 * plan.epsilon.upper); // nothing spent yet: the job alone
    const { jobId, runId } = await callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.5, examples: 4 });
    const job = await ctx.jobs.wait(jobId);
    expect(job.error ?? null).toBeNull();
    expect(job.status).toBe('succeeded');
    const reserved = await reservations();
    expect(reserved).toHaveLength(1);
    expect(reserved[0].event).toEqual(plan.event);
    expect(accountEpsilon(reserved[0].event!, 1e-5).bounds.upper).toBeLessThanOrEqual(0.5);

    const run = await callMethod(ctx, 'augment.get', { id: runId });
    expect(run.status).toBe('succeeded');
    const certificate = run.certificate!;
    expect(certificate.format).toBe('veil.augmentation/v1');
    expect(certificate.event).toEqual(plan.event);
    expect(certificate.generated.requested).toBe(4);
    expect(certificate.ledger.entryId).toBe(run.ledgerEntryId);
    const tag = `augmentation-${runId}`;
    expect(certificate.generated.tags).toEqual(['generated', tag]);

    const generated = await records(['public'], [tag]);
    expect(generated.total).toBe(run.added);
    expect(run.added).toBeGreaterThan(0);
    for (const r of generated.rows) {
      expect(r.split).toBe('public');
      expect(r.tags).toEqual(expect.arrayContaining(['generated', tag]));
      // The model saw only public examples: the private split's marker never appears.
      expect(`${r.text} ${r.output ?? ''}`).not.toContain(MARKER);
    }
    expect((await records(['private'], ['generated'])).total).toBe(0);
    expect((await records(['private'])).total).toBe(60);
  }, 300_000);

  it('is refused over budget with nothing written', async () => {
    const before = { reserved: (await reservations()).length, runs: (await callMethod(ctx, 'augment.list', { dataset: 'notes' })).length, public: (await records(['public'])).total };
    const plan = await callMethod(ctx, 'augment.plan', { dataset: 'notes', epsilon: 0.9, examples: 2 });
    expect(plan.budget!.afterJob).toBeGreaterThan(1);
    expect(plan.warnings).toEqual([expect.stringMatching(/above the cap 1: a job like it will be refused/)]);
    await expect(callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.9, examples: 2 })).rejects.toThrow(/budget/i);
    expect((await reservations()).length).toBe(before.reserved);
    expect((await callMethod(ctx, 'augment.list', { dataset: 'notes' })).length).toBe(before.runs);
    expect((await records(['public'])).total).toBe(before.public);
  }, 120_000);

  it('refuses to price a dataset without public examples, reserving nothing', async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'private-only', task: 'generation' });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'private-only', records: topics.map((t) => ({ text: `Patient came in with ${t}.`, split: 'private' as const })) });
    await expect(callMethod(ctx, 'augment.plan', { dataset: 'private-only' })).rejects.toThrow(/"private-only" has no public examples/);
    await expect(callMethod(ctx, 'augment.start', { dataset: 'private-only' })).rejects.toThrow(/no public examples/);
    expect(await callMethod(ctx, 'ledger.entries', { dataset: 'private-only' })).toEqual([]);
  }, 60_000);

  it('cancels: the reservation stays charged, nothing is added, the run says so', async () => {
    await callMethod(ctx, 'budget.set', { dataset: 'notes', epsilon: 2, delta: 1e-5 });
    const before = { reserved: (await reservations()).length, public: (await records(['public'])).total };
    const { jobId, runId } = await callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.3, examples: 500, maxTokens: 2000 });
    ctx.jobs.cancel(jobId);
    expect((await ctx.jobs.wait(jobId)).status).toBe('cancelled');
    expect((await reservations()).length).toBe(before.reserved + 1);
    expect((await records(['public'])).total).toBe(before.public);
    const run = await callMethod(ctx, 'augment.get', { id: runId });
    expect(run.status).toBe('cancelled');
    expect(run.error).toMatch(/reserved budget stays spent/);
    expect(run.certificate).toBeNull();
  }, 300_000);

  it('a private record the model cannot embed is left out of its unit; the job still succeeds', async () => {
    const UNEMBEDDABLE = 'zqxunembeddable';
    await callMethod(ctx, 'vault.createDataset', { name: 'notes2', task: 'generation', privacyUnit: 'record', description: 'Summarise each clinic note in one sentence.' });
    await callMethod(ctx, 'vault.addRecords', {
      dataset: 'notes2',
      records: [
        ...Array.from({ length: 30 }, (_, i) => ({ text: `Patient ${i} came in with ${topics[i % topics.length]}${i === 7 ? ` ${UNEMBEDDABLE}` : ''}.`, output: topics[i % topics.length], split: 'private' as const })),
        ...topics.map((t, i) => ({ text: `A visitor came in with ${t} for ${i + 2} days.`, output: t, split: 'public' as const })),
      ],
    });
    await callMethod(ctx, 'budget.set', { dataset: 'notes2', epsilon: 1, delta: 1e-5 });
    const model = await (await getModelService(ctx)).current();
    const embed = model.embed.bind(model);
    // As llama.cpp does for a text longer than its context: the whole call fails.
    const spy = vi.spyOn(model, 'embed').mockImplementation(async (texts, signal) => {
      if (texts.some((t) => t.includes(UNEMBEDDABLE))) throw new Error('Input is longer than the usable context size');
      return embed(texts, signal);
    });
    try {
      const { jobId, runId } = await callMethod(ctx, 'augment.start', { dataset: 'notes2', epsilon: 0.5, examples: 2 });
      const job = await ctx.jobs.wait(jobId);
      expect(job.error ?? null).toBeNull();
      expect(job.status).toBe('succeeded');
      expect((await callMethod(ctx, 'augment.get', { id: runId })).status).toBe('succeeded');
      const privateCalls = spy.mock.calls.map(([texts]) => texts).filter((texts) => texts.some((t) => t.startsWith('Patient')));
      // The 30 private texts go in one call, which fails; then each alone: only the unembeddable one is left out.
      expect(privateCalls[0]).toHaveLength(30);
      expect(privateCalls.slice(1).map((texts) => texts.length)).toEqual(Array(30).fill(1));
    } finally {
      spy.mockRestore();
    }
  }, 120_000);

  it('batches private texts only on a model whose embeddings are batch-invariant; one per call otherwise', async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'notes3', task: 'generation', privacyUnit: 'record', description: 'Summarise each clinic note in one sentence.' });
    await callMethod(ctx, 'vault.addRecords', {
      dataset: 'notes3',
      records: [
        ...Array.from({ length: 40 }, (_, i) => ({ text: `Patient ${i} came in with ${topics[i % topics.length]}.`, output: topics[i % topics.length], split: 'private' as const })),
        ...topics.map((t, i) => ({ text: `A visitor came in with ${t} for ${i + 2} days.`, output: t, split: 'public' as const })),
      ],
    });
    await callMethod(ctx, 'budget.set', { dataset: 'notes3', epsilon: 2, delta: 1e-5 });
    const model = await (await getModelService(ctx)).current();
    const capabilities = model.capabilities;
    expect(capabilities.batchInvariant).toBe(true); // the reference learner: TF-IDF of each text
    const spy = vi.spyOn(model, 'embed');
    const callSizes = async (batchInvariant: boolean | undefined) => {
      spy.mockClear();
      Object.assign(model, { capabilities: { ...capabilities, batchInvariant } });
      const { jobId } = await callMethod(ctx, 'augment.start', { dataset: 'notes3', epsilon: 0.2, examples: 1 });
      expect((await ctx.jobs.wait(jobId)).error ?? null).toBeNull();
      const calls = spy.mock.calls.map(([texts]) => texts);
      return {
        private: calls.filter((texts) => texts.some((t) => t.startsWith('Patient'))).map((texts) => texts.length),
        // One call for the public split (6 records, and the examples earlier runs added).
        publicCalls: calls.filter((texts) => texts.some((t) => t.startsWith('A visitor'))).length,
      };
    };
    try {
      expect(await callSizes(true)).toEqual({ private: [32, 8], publicCalls: 1 });
      // A remote server's vectors may depend on their batch-mates: each private text alone; public texts still batched.
      expect(await callSizes(false)).toEqual({ private: Array(40).fill(1), publicCalls: 1 });
      expect(await callSizes(undefined)).toEqual({ private: Array(40).fill(1), publicCalls: 1 });
    } finally {
      Object.assign(model, { capabilities });
      spy.mockRestore();
    }
  }, 180_000);
});
