/**
 * The command-line tests' shared set-up: one sample data directory (sampleDataDir.ts: the
 * sample e-mails as "mail", budget ε 8) for the tests of a file, made before them and removed
 * after (`useSampleDataDir`); `cli` runs `veil … --data-dir` on it in-process. `dir` and `data`
 * are live bindings, read by a test as if they were its own variables.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
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
