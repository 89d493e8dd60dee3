/**
 * Job records shared by many real processes: imports and `veil info` run at once on one
 * data directory (with jobs.json, every process rewrote the file without a lock: a
 * committed import's job read 'interrupted' and lost its result, or its record was lost).
 * Every import's job must end recorded 'succeeded' with its result.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';

const run = promisify(execFile);
const CHURN = join(import.meta.dirname, 'jobChurnChild.ts');
const IMPORTS = 6;
const INFOS = 10;
let dir: string;
let dataDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-jobs-procs-'));
  dataDir = ensureDataDir(join(dir, 'data'));
  const ctx = new ServiceContext(dataDir, 'cli');
  try {
    for (let i = 0; i < IMPORTS; i++) {
      await callMethod(ctx, 'vault.createDataset', { name: `d${i}`, labels: ['spam', 'ham'] });
      writeFileSync(join(dir, `d${i}.csv`), `text,label\n${Array.from({ length: 300 }, (_, r) => `message ${r} of file ${i},${r % 2 ? 'spam' : 'ham'}`).join('\n')}\n`);
    }
  } finally {
    await ctx.close();
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const veil = (...args: string[]) => run(process.execPath, ['bin/veil.mjs', ...args, '--data-dir', dataDir], { maxBuffer: 1 << 24 });

describe('job records across processes', () => {
  it('keep every committed import succeeded with its result while other processes import and run `veil info`', async () => {
    const imports = Array.from({ length: IMPORTS }, (_, i) => veil('vault', 'import', join(dir, `d${i}.csv`), '--dataset', `d${i}`, '--json'));
    const infos = Array.from({ length: INFOS }, () => veil('info', '--json'));
    const reports = await Promise.all(imports);
    await Promise.all(infos);
    for (const { stdout } of reports) expect(JSON.parse(stdout)).toMatchObject({ accepted: 300 });
    const ctx = new ServiceContext(dataDir, 'cli');
    try {
      const jobs = (await ctx.jobs.list()).filter((j) => j.kind === 'vault.import');
      expect(jobs).toHaveLength(IMPORTS);
      for (const job of jobs) expect(job).toMatchObject({ status: 'succeeded', result: { accepted: 300 } });
    } finally {
      await ctx.close();
    }
  }, 300_000);

  it('lose no record and no result when several processes run many jobs at once', async () => {
    const PROCESSES = 4;
    const JOBS = 40;
    const children = Array.from({ length: PROCESSES }, () => run(process.execPath, ['--import', 'tsx', CHURN, dataDir, String(JOBS)]));
    const ids = (await Promise.all(children)).flatMap(({ stdout }) => JSON.parse(stdout) as string[]);
    expect(ids).toHaveLength(PROCESSES * JOBS);
    const ctx = new ServiceContext(dataDir, 'cli');
    try {
      const churned = new Map((await ctx.jobs.list()).filter((j) => j.kind === 'churn').map((j) => [j.id, j]));
      for (const id of ids) expect(churned.get(id)).toMatchObject({ status: 'succeeded', result: { n: expect.any(Number) } });
    } finally {
      await ctx.close();
    }
  }, 300_000);
});
