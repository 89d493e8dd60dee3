/**
 * Jobs: progress events, cancel, results, records shared through the database by several
 * processes, 'interrupted' only once the owning process is gone, and a jobs.json left by
 * an older Veil taken over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { JobManager } from '../../../../electron/services/jobs/jobManager';
import { ensureDataDir } from '../../../../electron/services/dataDir';
import { DATABASE_FILE, openAppDatabase } from '../../../../electron/services/db/appDatabase';

const CHILD = join(import.meta.dirname, 'jobOwnerChild.ts');
const dirs: string[] = [];
const children: ChildProcess[] = [];
const managers: JobManager[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'veil-jobs-'));
  dirs.push(dir);
  return dir;
}
function manager(dir: string): JobManager {
  const jobs = new JobManager(dir, () => undefined);
  managers.push(jobs);
  return jobs;
}
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const jobs of managers.splice(0)) await jobs.shutdown();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** A child process running a job that never ends; resolves to the process and the job id. */
function jobOwner(dir: string): Promise<{ child: ChildProcess; jobId: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (jobId) => resolve({ child, jobId }));
    child.once('exit', (code) => reject(new Error(`the job owner exited with ${code}`)));
  });
}
const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

describe('JobManager', () => {
  it('reports progress and the result', async () => {
    const events: unknown[] = [];
    const jobs = new JobManager(tempDir(), (event, payload) => events.push([event, payload]));
    managers.push(jobs);
    const id = await jobs.start('count', async (job) => {
      for (let i = 1; i <= 3; i++) job.progress('counting', i, 3);
      return { counted: 3 };
    });
    const record = await jobs.wait(id);
    expect(record).toMatchObject({ status: 'succeeded', kind: 'count', result: { counted: 3 }, progress: { done: 3, total: 3 } });
    expect(events.filter((e) => (e as string[])[0] === 'job.progress')).toHaveLength(3);
    expect(events.at(-1)).toEqual(['job.finished', expect.objectContaining({ id, status: 'succeeded' })]);
  });

  it('cancels a running job and records failures with their message', async () => {
    const jobs = manager(tempDir());
    const id = await jobs.start('wait', async (job) => {
      for (;;) {
        await new Promise((r) => setTimeout(r, 5));
        job.throwIfCancelled();
      }
    });
    expect(jobs.cancel(id)).toBe(true);
    expect((await jobs.wait(id)).status).toBe('cancelled');
    expect(jobs.cancel(id)).toBe(false);
    const failed = await jobs.start('fail', async () => {
      throw new Error('bad input on line 3');
    });
    expect(await jobs.wait(failed)).toMatchObject({ status: 'failed', error: 'bad input on line 3' });
  });

  it('shares finished records with a manager that opens the data directory later (another process, after a restart)', async () => {
    const dir = tempDir();
    const first = manager(dir);
    const id = await first.start('count', async () => ({ counted: 7 }));
    await first.wait(id);
    await first.shutdown();
    const second = manager(dir);
    expect(await second.get(id)).toMatchObject({ status: 'succeeded', result: { counted: 7 } });
    expect((await second.list()).map((r) => r.id)).toEqual([id]);
  });

  it('keeps the job of a live process running however long it is paused, and marks it interrupted once the process is gone', async () => {
    const dir = tempDir();
    const { child, jobId } = await jobOwner(dir);
    const reader = manager(dir);
    child.kill('SIGSTOP'); // paused: no heartbeat, but the process lives
    try {
      expect((await reader.get(jobId)).status).toBe('running');
      expect(await reader.isRunning(jobId)).toBe(true);
      // The owner's heartbeat is long silent (as after a pause of hours): still its process, still running.
      const db = await openAppDatabase(join(dir, DATABASE_FILE));
      await db.run('UPDATE jobs SET heartbeat_at = $old WHERE id = $id', { id: jobId, old: new Date(Date.now() - 86_400_000).toISOString() });
      await db.close();
      expect((await manager(dir).list()).find((r) => r.id === jobId)?.status).toBe('running');
    } finally {
      child.kill('SIGKILL');
    }
    await exited(child);
    expect(await reader.isRunning(jobId)).toBe(false);
    expect(await manager(dir).get(jobId)).toMatchObject({ status: 'interrupted', endedAt: expect.any(String) });
  });

  it('does not take a reused pid for the owner: a live pid with another start identity is not the job\'s process', async () => {
    const dir = tempDir();
    const { child, jobId } = await jobOwner(dir);
    const db = await openAppDatabase(join(dir, DATABASE_FILE));
    await db.run(`UPDATE jobs SET owner_start = 'another-process' WHERE id = $id`, { id: jobId });
    await db.close();
    expect(child.exitCode).toBeNull();
    expect((await manager(dir).get(jobId)).status).toBe(process.platform === 'linux' ? 'interrupted' : 'running');
  });

  it('takes over a jobs.json left by an older Veil: finished records kept, a dead owner\'s job interrupted, a live one\'s running; the file removed', async () => {
    const dir = ensureDataDir(join(tempDir(), 'data'));
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(other);
    const startedAt = new Date().toISOString();
    const legacy = [
      { id: 'done', kind: 'vault.import', status: 'succeeded', startedAt, endedAt: startedAt, result: { accepted: 3 }, ownerPid: 1 },
      { id: 'dead', kind: 'synthesis', status: 'running', startedAt, ownerPid: 2 ** 22 + 1 },
      { id: 'live', kind: 'synthesis', status: 'running', startedAt, ownerPid: other.pid },
    ];
    writeFileSync(join(dir, 'jobs.json'), JSON.stringify(legacy));
    const jobs = manager(dir);
    expect(await jobs.get('done')).toMatchObject({ status: 'succeeded', result: { accepted: 3 } });
    expect((await jobs.get('dead')).status).toBe('interrupted');
    expect((await jobs.get('live')).status).toBe('running');
    expect(existsSync(join(dir, 'jobs.json'))).toBe(false);
    writeFileSync(join(dir, 'jobs.json'), '{ torn');
    expect((await manager(dir).list()).length).toBe(3);
    expect(existsSync(join(dir, 'jobs.json'))).toBe(false);
  });
});

describe('data directory', () => {
  it('is created owner-only', () => {
    const dir = join(tempDir(), 'nested', 'veil');
    ensureDataDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
