/**
 * A generated example that equals a text the dataset already holds (here: a private record's)
 * is written again, never released: the vault would drop it, and which examples it dropped would
 * tell which texts the private split holds. The writer is replaced by one that first repeats a
 * private record's text, then writes a fresh one (real SQLite, real DPM release and ledger).
 * Texts the vault takes for the same one (case, spacing) are written again too, and so is a text
 * that another write adds while the job runs: the commit, the insert and the certificate are one
 * transaction, which that text rolls back, and the release already paid for is committed with the
 * example written again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { MARKER, notesDataDir, topics } from './notesDataset';

/** The text of private record i of notesDataset. */
const privateText = (i: number) => `Patient ${MARKER} ${i} came in with ${topics[i % topics.length]} for ${1 + (i % 5)} days.`;
let calls = 0;
/** The writer of the current test: the call number → the generated text. */
let writer: (call: number) => Promise<string> = async (call) => (call % 2 === 1 ? ` ${privateText(call)}\nAnswer: a summary` : ` A fresh visitor note number ${call}.\nAnswer: fresh`);

vi.mock('../../../electron/services/synthesis/domainLearner', async (original) => ({
  ...(await original<typeof import('../../../electron/services/synthesis/domainLearner')>()),
  modelForDataset: async () => ({ generate: async () => ({ text: await writer(++calls) }) }),
}));

let ctx: ServiceContext;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ ctx, remove } = await notesDataDir('veil-augment-collision-'));
}, 60_000);
afterAll(() => remove?.());

describe('augmentation and texts the dataset holds', () => {
  it('never releases a generated text equal to a private record; no duplicates reach the vault', async () => {
    const { jobId, runId } = await callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.5, examples: 3 });
    const job = await ctx.jobs.wait(jobId);
    expect(job.error ?? null).toBeNull();
    const run = await callMethod(ctx, 'augment.get', { id: runId });
    expect(calls).toBe(6); // each example: the private text (refused), then a fresh one
    expect(run.certificate!.generated).toMatchObject({ requested: 3, added: 3, duplicates: 0 });
    const generated = await callMethod(ctx, 'vault.records', { dataset: 'notes', filter: { splits: ['public'], tags: [`augmentation-${runId}`] }, limit: 10 });
    expect(generated.rows.map((r) => r.text)).toEqual([1, 3, 5].map((n) => `A fresh visitor note number ${n + 1}.`));
    const exported = await callMethod(ctx, 'augment.export', { id: runId });
    expect(exported.content).not.toContain(MARKER);
  }, 120_000);

  it('writes again a text the vault takes for one already written (case and spacing differ)', async () => {
    calls = 0;
    writer = async (call) => (call === 2 ? ' a  FRESH visitor note.\nAnswer: x' : ` A fresh visitor note${call === 1 ? '' : ` ${call}`}.\nAnswer: x`);
    const { jobId, runId } = await callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.1, examples: 2 });
    expect((await ctx.jobs.wait(jobId)).error ?? null).toBeNull();
    const run = await callMethod(ctx, 'augment.get', { id: runId });
    expect(calls).toBe(3);
    expect(run.certificate!.generated).toMatchObject({ requested: 2, added: 2, duplicates: 0 });
  }, 120_000);

  it('writes again a text another write adds while the job runs: the paid-for release is committed with the insert', async () => {
    calls = 0;
    const fresh = (call: number) => `Concurrent visitor note ${call}.`;
    writer = async (call) => {
      // The second call stands for another write (an import) that adds the first example meanwhile.
      if (call === 2) await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records: [{ text: fresh(1), split: 'public' }] });
      return ` ${fresh(call)}\nAnswer: x`;
    };
    const before = (await callMethod(ctx, 'ledger.summary', { dataset: 'notes' })).reservations.committed;
    const { jobId, runId } = await callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.1, examples: 2 });
    expect((await ctx.jobs.wait(jobId)).error ?? null).toBeNull();
    expect(calls).toBe(3); // the first example is written again once the commit's transaction finds it held
    const run = await callMethod(ctx, 'augment.get', { id: runId });
    expect(run).toMatchObject({ status: 'succeeded', added: 2 });
    expect(run.certificate!.generated).toMatchObject({ requested: 2, added: 2, duplicates: 0 });
    // One commit, naming the document that was stored and whose examples are in the vault.
    expect((await callMethod(ctx, 'ledger.summary', { dataset: 'notes' })).reservations.committed).toBe(before + 1);
    const tagged = await callMethod(ctx, 'vault.records', { dataset: 'notes', filter: { tags: [`augmentation-${runId}`] }, limit: 10 });
    expect(tagged.rows.map((r) => r.text).sort()).toEqual([fresh(2), fresh(3)]);
    const exported = await callMethod(ctx, 'augment.export', { id: runId });
    expect((JSON.parse(exported.content) as { examples: { text: string }[] }).examples.map((e) => e.text)).toEqual([fresh(3), fresh(2)]);
    const verified = await callMethod(ctx, 'certificate.verify', { document: exported.content });
    expect(verified.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([]);
  }, 120_000);

  it('gives up an example still added by another write after 3 rounds; the rest is committed', async () => {
    calls = 0;
    const fresh = (call: number) => `Racing visitor note ${call}.`;
    // Each call stands for another write that adds the previous call's text meanwhile.
    writer = async (call) => {
      if (call > 1) await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records: [{ text: fresh(call - 1), split: 'public' }] });
      return ` ${fresh(call)}\nAnswer: x`;
    };
    const { jobId, runId } = await callMethod(ctx, 'augment.start', { dataset: 'notes', epsilon: 0.1, examples: 2 });
    expect((await ctx.jobs.wait(jobId)).error ?? null).toBeNull();
    // Round 1: note 1 held, written again (3); round 2: note 2 held, written again (4); round 3: note 3 held, given up.
    expect(calls).toBe(4);
    const run = await callMethod(ctx, 'augment.get', { id: runId });
    expect(run).toMatchObject({ status: 'succeeded', added: 1 });
    expect(run.certificate!.generated).toMatchObject({ requested: 2, added: 1, duplicates: 0 });
    const tagged = await callMethod(ctx, 'vault.records', { dataset: 'notes', filter: { tags: [`augmentation-${runId}`] }, limit: 10 });
    expect(tagged.rows.map((r) => r.text)).toEqual([fresh(4)]);
  }, 120_000);
});
