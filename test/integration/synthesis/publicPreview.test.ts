/**
 * "Preview on public data" (synth.preview) on a real data directory with the reference
 * learner: it runs the job on the public split with the job's calibrated noise, shows its
 * demonstrations and utility check, and
 * 1. charges nothing: the ledger and the runs are unchanged;
 * 2. reads no private record: the service's source refuses any sampling of a private pool (the
 *    only way synthesis reads private texts: a sample would fail the job and is counted), and
 *    the private split's texts are replaced by a poisoned marker that must appear nowhere in
 *    the result. (The reference learner's candidate vocabulary is built from public text, so
 *    with it the marker check alone could not fail; the sampling guard can.)
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { withServices } from '../../../electron/cli/withServices';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { appDatabase } from '../../../electron/services/db/appDatabase';
import { getLedgerService } from '../../../electron/services/ledger/ledgerService';
import { RunStore } from '../../../electron/services/synthesis/runStore';
import { SynthesisService } from '../../../electron/services/synthesis/synthesisService';
import { vaultSource } from '../../../electron/services/synthesis/vaultSource';
import { previewCurveSchema, synthesisPreviewSchema } from '../../../electron/shared/api/synthesisPreview';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import { sampleDataDir } from './sampleDataDir';

const MARKER = 'zqxpoisonmarker';
const job = { dataset: 'mail', shots: 2, epsilon: 2, teachers: 4, topK: 12, maxTokens: 6 } as const;

let dir: string;
let data: string;

beforeAll(async () => {
  ({ dir, data } = await sampleDataDir('veil-preview-'));
  await withServices(data, async (ctx) => {
    const vault = await getVaultService(ctx);
    await vault.db.run(`UPDATE records SET text = '${MARKER} ' || '${MARKER} ${MARKER}' WHERE split = 'private'`);
  });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The synthesis service over the vault, with every private pool refusing to be sampled. */
async function guardedService(ctx: ServiceContext): Promise<{ service: SynthesisService; sampled: () => number }> {
  const inner = await vaultSource(ctx);
  let sampled = 0;
  const service = new SynthesisService(ctx, new RunStore(await appDatabase(ctx)), await getLedgerService(ctx), {
    ...inner,
    pool: async (dataset, label) => {
      const pool = await inner.pool(dataset, label);
      return { units: pool.units, sampleTeachers: () => (sampled++, Promise.reject(new Error('a private pool was sampled'))) };
    },
  });
  return { service, sampled: () => sampled };
}

describe('synth.preview', () => {
  it('runs the job on the public split, shows its demonstrations and utility, and charges nothing', async () => {
    await withServices(data, async (ctx) => {
      const entries = await callMethod(ctx, 'ledger.entries', { dataset: 'mail' });
      const runs = await callMethod(ctx, 'synth.list', {});
      const priced = await callMethod(ctx, 'synth.plan', job);
      const { jobId } = await callMethod(ctx, 'synth.preview', { ...job, limit: 40 });
      const finished = await ctx.jobs.wait(jobId);
      expect(finished.status, finished.error).toBe('succeeded');
      const preview = synthesisPreviewSchema.parse(finished.result);
      expect(preview.noise).toEqual(priced.noise); // the job's calibrated noise
      expect(preview.epsilon).toBe(priced.epsilon.upper);
      expect(preview.demonstrations).toHaveLength(2);
      expect(preview.demonstrations.map((d) => d.label).sort()).toEqual(['ham', 'spam']);
      expect(preview.pools.every((p) => p.units > 0 && p.q > 0)).toBe(true);
      expect(preview.utility).toMatchObject({ metric: 'accuracy', examples: 40 });
      expect(preview.utility.balanced).toBeDefined();
      expect(await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).toEqual(entries);
      expect(await callMethod(ctx, 'synth.list', {})).toEqual(runs);
    });
  }, 120_000);

  it('reads no private record: no private pool is sampled and the poisoned marker is in no demonstration', async () => {
    await withServices(data, async (ctx) => {
      const { service, sampled } = await guardedService(ctx);
      const jobId = await service.preview({ ...job, method: 'dp-few-shot-gaussian', shots: 4, perTeacher: 2, rounds: 2, maxExampleChars: 400, epsilon: 50 }, 20);
      const finished = await ctx.jobs.wait(jobId);
      expect(finished.status, finished.error).toBe('succeeded');
      expect(sampled()).toBe(0);
      expect(JSON.stringify(finished.result)).not.toContain(MARKER);
    });
  }, 120_000);
});

describe('synth.previewCurve (utility against ε)', () => {
  it('previews each ε with its own calibrated noise, charges nothing and reads no private record', async () => {
    await withServices(data, async (ctx) => {
      const entries = await callMethod(ctx, 'ledger.entries', { dataset: 'mail' });
      const runs = await callMethod(ctx, 'synth.list', {});
      const { epsilon: _e, ...settings } = job;
      const { jobId } = await callMethod(ctx, 'synth.previewCurve', { ...settings, epsilons: [4, 1], limit: 20 });
      const finished = await ctx.jobs.wait(jobId);
      expect(finished.status, finished.error).toBe('succeeded');
      const curve = previewCurveSchema.parse(finished.result);
      expect(curve.points.map((p) => p.epsilon)).toEqual([1, 4]);
      for (const point of curve.points) expect(point.noise).toEqual((await callMethod(ctx, 'synth.plan', { ...job, epsilon: point.epsilon })).noise);
      expect(curve).toMatchObject({ metric: 'balanced accuracy', constant: 0.5 });
      expect(await callMethod(ctx, 'ledger.entries', { dataset: 'mail' })).toEqual(entries);
      expect(await callMethod(ctx, 'synth.list', {})).toEqual(runs);

      const { service, sampled } = await guardedService(ctx);
      const guarded = await service.previewCurve({ ...settings, method: 'dp-few-shot-gaussian', perTeacher: 1, rounds: 2, maxExampleChars: 400 }, [2, 8], 20);
      const done = await ctx.jobs.wait(guarded);
      expect(done.status, done.error).toBe('succeeded');
      expect(sampled()).toBe(0);
      expect(JSON.stringify(done.result)).not.toContain(MARKER);
    });
  }, 240_000);

  it('reads the examples once and scores zero-shot once for the whole curve', async () => {
    await withServices(data, async (ctx) => {
      const inner = await vaultSource(ctx);
      const reads: string[] = [];
      const service = new SynthesisService(ctx, new RunStore(await appDatabase(ctx)), await getLedgerService(ctx), {
        ...inner,
        examples: (dataset, split, limit) => (reads.push(`${split}/${limit}`), inner.examples(dataset, split, limit)),
      });
      const scored = vi.spyOn(ReferenceLearner.prototype, 'scoreLabels');
      const { epsilon: _e, ...settings } = job;
      const jobId = await service.previewCurve({ ...settings, method: 'dp-few-shot-gaussian', perTeacher: 1, rounds: 2, maxExampleChars: 400 }, [1, 2, 4], 20);
      const done = await ctx.jobs.wait(jobId);
      const scoredCalls = scored.mock.calls.length;
      scored.mockRestore();
      expect(done.status, done.error).toBe('succeeded');
      const curve = previewCurveSchema.parse(done.result);
      // Before: every point read its pools and examples again and scored zero-shot again.
      expect(reads.filter((r) => r !== 'public/5000').sort()).toEqual(['held-out/20', 'public/50000']);
      // The real public demonstrations' sample, and the domain learner's own read when it was not kept.
      expect(reads.filter((r) => r === 'public/5000').length).toBeLessThanOrEqual(2);
      // Per point: the synthetic prompt and the real public demonstrations on 20 examples; zero-shot once.
      expect(scoredCalls).toBe(3 * 2 * 20 + 20);
      expect(new Set(curve.points.map((p) => p.zeroShot)).size).toBe(1);
    });
  }, 240_000);

  it('can be cancelled', async () => {
    await withServices(data, async (ctx) => {
      const { epsilon: _e, ...settings } = job;
      const { jobId } = await callMethod(ctx, 'synth.previewCurve', { ...settings, epsilons: [1, 2, 4, 8], limit: 200 });
      await callMethod(ctx, 'jobs.cancel', { id: jobId });
      expect((await ctx.jobs.wait(jobId)).status).toBe('cancelled');
    });
  }, 240_000);
});
