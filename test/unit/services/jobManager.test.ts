/** Jobs: progress events, cancel, results, and 'interrupted' after a restart. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobManager } from '../../../electron/services/jobs/jobManager';
import { ensureDataDir } from '../../../electron/services/dataDir';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'veil-jobs-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('JobManager', () => {
  it('reports progress and the result', async () => {
    const events: unknown[] = [];
    const jobs = new JobManager(tempDir(), (event, payload) => events.push([event, payload]));
    const id = jobs.start('count', async (job) => {
      for (let i = 1; i <= 3; i++) job.progress('counting', i, 3);
      return { counted: 3 };
    });
    const record = await jobs.wait(id);
    expect(record).toMatchObject({ status: 'succeeded', kind: 'count', result: { counted: 3 }, progress: { done: 3, total: 3 } });
    expect(events.filter((e) => (e as string[])[0] === 'job.progress')).toHaveLength(3);
    expect(events.at(-1)).toEqual(['job.finished', expect.objectContaining({ id, status: 'succeeded' })]);
  });

  it('cancels a running job and records failures with their message', async () => {
    const jobs = new JobManager(tempDir(), () => undefined);
    const id = jobs.start('wait', async (job) => {
      for (;;) {
        await new Promise((r) => setTimeout(r, 5));
        job.throwIfCancelled();
      }
    });
    expect(jobs.cancel(id)).toBe(true);
    expect((await jobs.wait(id)).status).toBe('cancelled');
    expect(jobs.cancel(id)).toBe(false);
    const failed = jobs.start('fail', async () => {
      throw new Error('bad input on line 3');
    });
    expect(await jobs.wait(failed)).toMatchObject({ status: 'failed', error: 'bad input on line 3' });
  });

  it('marks jobs that were running when the process died as interrupted', async () => {
    const dir = tempDir();
    const first = new JobManager(dir, () => undefined);
    const id = first.start('long', () => new Promise(() => undefined));
    const second = new JobManager(dir, () => undefined);
    expect(second.get(id).status).toBe('interrupted');
    expect(statSync(join(dir, 'jobs.json')).mode & 0o777).toBe(0o600);
  });

  it('keeps the running job of another live process (app and CLI on one data directory), and keeps its record when writing', async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const foreign = { id: 'job-of-the-app', kind: 'synthesis', status: 'running', startedAt: new Date().toISOString(), ownerPid: other.pid };
      writeFileSync(join(dir, 'jobs.json'), JSON.stringify([foreign]));
      const cli = new JobManager(dir, () => undefined);
      expect(cli.get(foreign.id).status).toBe('running');
      expect(cli.isRunning(foreign.id)).toBe(true);
      await cli.wait(cli.start('short', async () => 1));
      const file = JSON.parse(readFileSync(join(dir, 'jobs.json'), 'utf8')) as { id: string; status: string }[];
      expect(file.find((r) => r.id === foreign.id)?.status).toBe('running');
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
      expect(cli.isRunning(foreign.id)).toBe(false);
      expect(new JobManager(dir, () => undefined).get(foreign.id).status).toBe('interrupted');
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('data directory', () => {
  it('is created owner-only', () => {
    const dir = join(tempDir(), 'nested', 'veil');
    ensureDataDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
