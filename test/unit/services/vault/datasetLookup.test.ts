/**
 * One dataset lookup by id or name (vault/datasets.ts findDatasetKey) serves the vault and the
 * ledger (ledger/datasets.ts resolveDataset); each refuses an unknown dataset with its own error
 * class and the same message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../../electron/services/db/database';
import { migrate } from '../../../../electron/services/db/migrate';
import { migrations } from '../../../../electron/services/db/migrations';
import { LedgerError } from '../../../../electron/services/ledger/errors';
import { resolveDataset } from '../../../../electron/services/ledger/datasets';
import { createDataset, findDatasetKey, VaultError } from '../../../../electron/services/vault/datasets';

let db: Database;
let id: number;
beforeAll(async () => {
  db = await Database.open(':memory:');
  await migrate(db, migrations);
  id = await createDataset(db, { name: 'notes', description: '', task: 'classification', labels: [], privacyUnit: 'record', subjectCap: 1 });
});
afterAll(() => db.close());

describe('dataset lookup', () => {
  it('finds a dataset by id or by name, for the vault and the ledger alike', async () => {
    for (const ref of [id, 'notes']) {
      expect(await findDatasetKey(db, ref)).toEqual({ id, name: 'notes' });
      expect(await resolveDataset(db, ref)).toEqual({ id, name: 'notes' });
    }
  });

  it('refuses an unknown dataset with the caller’s error class and one message', async () => {
    for (const [ref, message] of [[id + 1, `no dataset with id ${id + 1}`], ['nope', 'no dataset named "nope"']] as const) {
      const vault = await findDatasetKey(db, ref).catch((error: unknown) => error);
      expect(vault).toBeInstanceOf(VaultError);
      expect(vault).toHaveProperty('message', message);
      const ledger = await resolveDataset(db, ref).catch((error: unknown) => error);
      expect(ledger).toBeInstanceOf(LedgerError);
      expect(ledger).not.toBeInstanceOf(VaultError);
      expect(ledger).toHaveProperty('message', message);
    }
  });
});
