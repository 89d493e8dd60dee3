/**
 * The command-line tests' shared set-up: one sample data directory (sampleDataDir.ts: the
 * sample e-mails as "mail", budget ε 8) for the tests of a file, made before them and removed
 * after (`useSampleDataDir`); `cli` runs `veil … --data-dir` on it in-process. `dir` and `data`
 * are live bindings, read by a test as if they were its own variables.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { withServices } from '../../../electron/cli/withServices';
import { callMethod } from '../../../electron/services/api';
import { runCliCaptured } from '../model/cliHarness';
import { sampleDataDir } from './sampleDataDir';

export let dir: string;
export let data: string;

export function useSampleDataDir(prefix: string): void {
  beforeAll(async () => {
    ({ dir, data } = await sampleDataDir(prefix));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}

export const cli = (...args: string[]) => runCliCaptured(...args, '--data-dir', data);

/** The ledger entries of "mail". */
export const ledgerEntries = () => withServices(data, (ctx) => callMethod(ctx, 'ledger.entries', { dataset: 'mail' }));

/**
 * `veil … --data-dir` as a real process (the bundle), interrupted with SIGINT (Ctrl+C) once its
 * stderr matches `when` (the job is running); it must exit 130. Its output, for the caller's checks.
 */
export async function interruptCli(args: string[], when: RegExp): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/veil.mjs', ...args, '--data-dir', data], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += String(chunk);
        if (when.test(stderr)) resolve();
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  return { stdout, stderr };
}
