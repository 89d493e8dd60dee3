/**
 * The answering preview (ask.plan) asks only whether a generation dataset has public
 * demonstrations — public records with a non-blank output, in its own public split or, without
 * one, its public source's — by one existence query: it reads no public examples (before, up
 * to 2,000 of them, with every public id, on each preview). Its answer is the one the job's
 * sample gives: the default aggregation is sga exactly when the job would find demonstrations,
 * and an output blank to JavaScript's trim (spaces, tabs, line breaks, U+00A0, U+3000) is none.
 * With more public records than the sample holds and few outputs, the job runs (and charges)
 * the aggregation the preview named: its sample is drawn among the records with an output (it
 * was drawn among all public records, missed the one output and ran embedding instead of sga).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getAnsweringService } from '../../../electron/services/answering/answeringHandlers';
import { publicExamples } from '../../../electron/services/answering/publicExamples';
import { publicDemonstrations, PUBLIC_EXAMPLES_LIMIT } from '../../../electron/services/answering/sgaSettings';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { appDatabase } from '../../../electron/services/db/appDatabase';
import { tempServices, type TempServices } from '../../helpers/services';

let services: TempServices;
let ctx: ServiceContext;

async function generationDataset(name: string, publicOutputs: (string | undefined)[]) {
  await callMethod(ctx, 'vault.createDataset', { name, task: 'generation' });
  await callMethod(ctx, 'vault.addRecords', {
    dataset: name,
    records: [
      { text: `${name} private note`, output: 'private summary' },
      ...publicOutputs.map((output, i) => ({ text: `${name} public text ${i}`, ...(output === undefined ? {} : { output }), split: 'public' as const })),
    ],
  });
}

beforeAll(async () => {
  services = tempServices('veil-ask-plan-public-');
  ctx = services.ctx;
  await generationDataset('with-outputs', [undefined, ' \u00a0', 'a summary']);
  await generationDataset('blank-outputs', [undefined, ' \t\n', '\u00a0\u3000', '']);
  await generationDataset('borrows', []);
  await callMethod(ctx, 'publicSource.set', { dataset: 'borrows', from: 'with-outputs' });
  await generationDataset('borrows-blank', []);
  await callMethod(ctx, 'publicSource.set', { dataset: 'borrows-blank', from: 'blank-outputs' });
  await generationDataset('none', []);
});
afterAll(() => services?.remove());

const plan = (dataset: string, aggregation?: 'sga') => callMethod(ctx, 'ask.plan', { dataset, queries: ['what is it about?'], epsilon: 4, ensemble: 10, shots: 1, ...(aggregation && { aggregation }) });

describe('ask.plan and public demonstrations', () => {
  it('defaults to sga exactly where the job’s sample has demonstrations, reading no public example', async () => {
    const service = await getAnsweringService(ctx);
    const read = vi.spyOn(service.source, 'examples');
    const expected = { 'with-outputs': 'sga', 'blank-outputs': 'embedding', borrows: 'sga', 'borrows-blank': 'embedding', none: 'embedding' };
    for (const [dataset, aggregation] of Object.entries(expected)) {
      expect((await plan(dataset)).aggregation).toBe(aggregation);
      // What the job decides from: its sample of public examples, as demonstrations.
      const demos = publicDemonstrations(await publicExamples(await appDatabase(ctx), service.source, await service.source.dataset(dataset), PUBLIC_EXAMPLES_LIMIT, { withOutput: true }));
      expect(demos.length > 0 ? 'sga' : 'embedding').toBe(aggregation);
      read.mockClear();
      await plan(dataset);
      expect(read).not.toHaveBeenCalled();
    }
    read.mockRestore();
  });

  it('refuses sga in the preview where there are no public demonstrations', async () => {
    await expect(plan('blank-outputs', 'sga')).rejects.toThrow(/semantic group aggregation needs public examples and "blank-outputs" has none/);
    expect((await plan('borrows', 'sga')).aggregation).toBe('sga');
  });
});

describe('a public split larger than the job’s sample, with one output', () => {
  it('the job runs and charges the aggregation the preview named and priced', { timeout: 120_000 }, async () => {
    const name = 'sparse';
    const publicRecords = PUBLIC_EXAMPLES_LIMIT + 501;
    await callMethod(ctx, 'vault.createDataset', { name, task: 'generation' });
    await callMethod(ctx, 'vault.addRecords', {
      dataset: name,
      records: [
        ...Array.from({ length: 40 }, (_, i) => ({ text: `private note ${i} about fever`, output: `fever ${i}` })),
        // The one output is the 8th public record: a position the seeded 2,000-record sample of
        // this dataset's 2,501 public records leaves out (asserted below).
        ...Array.from({ length: publicRecords }, (_, i) => ({ text: `public note ${i} about cough`, split: 'public' as const, ...(i === 7 && { output: 'cough: review in clinic' }) })),
      ],
    });
    await callMethod(ctx, 'budget.set', { dataset: name, epsilon: 40, delta: 1e-5 });
    const service = await getAnsweringService(ctx);
    const dataset = await service.source.dataset(name);
    // The scenario: a uniform sample of 2,000 of all public records (fixed seed) misses the one output.
    expect(publicDemonstrations(await service.source.examples(dataset, 'public', PUBLIC_EXAMPLES_LIMIT))).toEqual([]);

    const request = { dataset: name, queries: ['what is it about?'], epsilon: 3, ensemble: 4, shots: 1, sgaDepth: 2, sgaCandidates: 2, maxTokens: 8 };
    const priced = await callMethod(ctx, 'ask.plan', request);
    expect(priced.aggregation).toBe('sga');
    const { jobId, runId } = await callMethod(ctx, 'ask.start', request);
    expect((await ctx.jobs.wait(jobId)).error ?? null).toBeNull();
    const run = await callMethod(ctx, 'ask.get', { id: runId });
    expect(run.aggregation).toBe(priced.aggregation);
    expect(run.document!.certificate.mechanism).toBe('sga');
    expect(run.document!.certificate.parameters.publicExamples).toBe(1);
  });
});
