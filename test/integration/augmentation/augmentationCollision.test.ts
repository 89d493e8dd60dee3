/**
 * A generated example that equals a text the dataset already holds (here: a private record's)
 * is written again, never released: the vault would drop it, and which examples it dropped would
 * tell which texts the private split holds. The writer is replaced by one that first repeats a
 * private record's text, then writes a fresh one (real SQLite, real DPM release and ledger).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { MARKER, notesDataDir, topics } from './notesDataset';

/** The text of private record i of notesDataset. */
const privateText = (i: number) => `Patient ${MARKER} ${i} came in with ${topics[i % topics.length]} for ${1 + (i % 5)} days.`;
let calls = 0;

vi.mock('../../../electron/services/synthesis/domainLearner', async (original) => ({
  ...(await original<typeof import('../../../electron/services/synthesis/domainLearner')>()),
  modelForDataset: async () => ({
    generate: async () => {
      calls++;
      return { text: calls % 2 === 1 ? ` ${privateText(calls)}\nAnswer: a summary` : ` A fresh visitor note number ${calls}.\nAnswer: fresh` };
    },
  }),
}));

let ctx: ServiceContext;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ ctx, close } = await notesDataDir('veil-augment-collision-'));
}, 60_000);
afterAll(() => close?.());

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
});
