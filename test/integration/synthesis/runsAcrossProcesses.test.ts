/**
 * Synthesis runs shared by two Veil processes on one data directory: the CLI listing runs
 * while the app generates must not mark the app's run interrupted; a run whose job runs
 * nowhere is.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { Database } from '../../../electron/services/db/database';
import { sampleDataDir } from './sampleDataDir';

const run = promisify(execFile);
let sample: { dir: string; data: string };
beforeAll(async () => {
  sample = await sampleDataDir('veil-runs-');
}, 120_000);
afterAll(() => rmSync(sample.dir, { recursive: true, force: true }));

describe('synthesis runs across processes', () => {
  it('stay running while another process lists them, and become interrupted when their job runs nowhere', async () => {
    const ctx = new ServiceContext(sample.data, 'cli');
    let runId: number;
    try {
      const started = await callMethod(ctx, 'synth.start', { dataset: 'mail', shots: 8, teachers: 10, perTeacher: 2, topK: 50, maxTokens: 128, epsilon: 1 });
      runId = started.runId;
      const { stdout } = await run(process.execPath, ['bin/veil.mjs', 'synth', 'list', '--data-dir', sample.data, '--json']);
      expect((await ctx.jobs.get(started.jobId)).status).toBe('running'); // the listing overlapped the job
      expect((JSON.parse(stdout) as { id: number; status: string }[]).find((r) => r.id === runId)?.status).toBe('running');
      expect((await callMethod(ctx, 'synth.get', { id: runId })).status).toBe('running');
      await callMethod(ctx, 'jobs.cancel', { id: started.jobId });
      await ctx.jobs.wait(started.jobId);
      expect((await callMethod(ctx, 'synth.get', { id: runId })).status).toBe('cancelled');
    } finally {
      await ctx.close();
    }
    const reopened = async () => {
      const after = new ServiceContext(sample.data, 'cli');
      try {
        return (await callMethod(after, 'synth.get', { id: runId })).status;
      } finally {
        await after.close();
      }
    };
    // As a crash would leave it: 'running', with a job that no live process runs: interrupted.
    const db = await Database.open(`${sample.data}/veil.sqlite`);
    await db.run(`UPDATE synthesis_runs SET status = 'running' WHERE id = $id`, { id: runId });
    expect(await reopened()).toBe('interrupted');
    // A run whose job no record names (none can be being started: the job is recorded before its run): interrupted.
    await db.run(`UPDATE synthesis_runs SET status = 'running', job_id = 'job-never-recorded' WHERE id = $id`, { id: runId });
    await db.close();
    expect(await reopened()).toBe('interrupted');
  }, 120_000);
});
