/**
 * Upgrading a real vault file: a database written by a Veil that had only the first (vault)
 * migration is opened by this version — the later migrations are applied, the data survives
 * and every feature works on it; a tampered applied migration is refused naming it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { DATABASE_FILE, openAppDatabase } from '../../../electron/services/db/appDatabase';
import { Database } from '../../../electron/services/db/database';
import { migrate } from '../../../electron/services/db/migrate';
import { migrations } from '../../../electron/services/db/migrations';
import { createDataset } from '../../../electron/services/vault/datasets';
import { insertRecord } from '../../../electron/services/vault/records';
import { scanPii } from '../../../electron/services/vault/vaultService';

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-upgrade-'));
  data = ensureDataDir(join(dir, 'data'));
  // The vault as the first release left it: migration 1 only, a dataset and 40 records.
  const old = await Database.open(join(data, DATABASE_FILE));
  expect(await migrate(old, migrations.slice(0, 1))).toEqual([1]);
  await old.transaction(async (tx) => {
    const id = await createDataset(tx, { name: 'old mail', description: 'from v1', task: 'classification', labels: ['spam', 'ham'], privacyUnit: 'record', subjectCap: 1 });
    for (let i = 0; i < 40; i++) {
      const text = `message ${i}${i % 10 === 0 ? ' from ann@example.com' : ''}`;
      await insertRecord(tx, id, { text, label: i % 2 ? 'spam' : 'ham', split: i < 30 ? 'private' : 'held-out', tags: [] }, scanPii(text));
    }
  });
  await old.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('upgrading a vault written by an older version', () => {
  it('applies the later migrations once and keeps every record usable', async () => {
    const ctx = new ServiceContext(data, 'cli');
    try {
      const stats = await callMethod(ctx, 'vault.stats', { dataset: 'old mail' });
      expect(stats.splits).toEqual({ private: 30, public: 0, heldOut: 10 });
      expect(stats.pii).toEqual([{ kind: 'email', records: 4 }]);
      expect((await callMethod(ctx, 'vault.records', { dataset: 'old mail', filter: { search: 'ann' } })).total).toBe(4);
      // The ledger tables of a later migration work on the old dataset.
      await callMethod(ctx, 'budget.set', { dataset: 'old mail', epsilon: 2 });
      expect(await callMethod(ctx, 'ledger.verify', { dataset: 'old mail' })).toMatchObject({ ok: true });
    } finally {
      await ctx.close();
    }
    const db = await openAppDatabase(join(data, DATABASE_FILE));
    const applied = await db.all<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(applied.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
    expect(await db.get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
    await db.close();
  });

  it('refuses to open the file once an applied migration no longer matches its checksum', async () => {
    const db = await Database.open(join(data, DATABASE_FILE));
    await db.run(`UPDATE schema_migrations SET checksum = 'tampered' WHERE id = 2`);
    await db.close();
    await expect(openAppDatabase(join(data, DATABASE_FILE))).rejects.toThrow(`Migration 2 "${migrations[1].name}" has changed since it was applied`);
  });
});
