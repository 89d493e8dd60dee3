/**
 * Test fixtures on the real services: a fresh temporary data directory with a service context
 * on it (as the CLI opens one), datasets created and filled through the service API as a user
 * would, and the subject-level dataset the privacy-unit tests count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callMethod } from '../../electron/services/api';
import { ServiceContext } from '../../electron/services/context';
import { ensureDataDir } from '../../electron/services/dataDir';
import type { MethodInput } from '../../electron/shared/contract';

export interface TempServices {
  /** the temporary directory; the data directory is `dataDir`, inside it */
  dir: string;
  dataDir: string;
  ctx: ServiceContext;
  /** closes the context and deletes the directory */
  remove: () => Promise<void>;
}

export function tempServices(prefix: string): TempServices {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dataDir = ensureDataDir(join(dir, 'data'));
  const ctx = new ServiceContext(dataDir, 'cli');
  return {
    dir,
    dataDir,
    ctx,
    remove: async () => {
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type NewRecords = MethodInput<'vault.addRecords'>['records'];

/** Creates `dataset` and adds `records` to it. */
export async function datasetWith(ctx: ServiceContext, dataset: MethodInput<'vault.createDataset'>, records: NewRecords): Promise<void> {
  await callMethod(ctx, 'vault.createDataset', dataset);
  await callMethod(ctx, 'vault.addRecords', { dataset: dataset.name, records });
}

/**
 * A subject-level dataset's records where some private records have no subject id: ann (two
 * records) and bob, two subject-less records ('nobody …'), and carl on the public split. Each
 * subject-less record is its own unit, so N = 4, while the private split holds 2 distinct subject ids.
 */
export const MIXED_SUBJECTS = {
  dataset: { labels: ['a'], privacyUnit: 'subject', subjectCap: 3 },
  records: [
    { text: 'ann one', label: 'a', subject: 'ann' },
    { text: 'ann two', label: 'a', subject: 'ann' },
    { text: 'bob one', label: 'a', subject: 'bob' },
    { text: 'nobody one', label: 'a' },
    { text: 'nobody two', label: 'a' },
    { text: 'carl public', label: 'a', subject: 'carl', split: 'public' },
  ],
  n: 4,
  distinctSubjectIds: 2,
} satisfies { dataset: Omit<MethodInput<'vault.createDataset'>, 'name'>; records: NewRecords; n: number; distinctSubjectIds: number };
