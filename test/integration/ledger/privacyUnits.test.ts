/**
 * N, the privacy units of the private split (privacyUnitCount), on real SQLite: equal to an
 * independent recount of every row after each change that moves it — records added (with and
 * without a subject), deleted, moved between splits, a subject id edited (outside Veil: no API
 * edits it), the dataset's unit switched — and counted from the (dataset, split, subject) index
 * alone (migration 20); kept while the database is unchanged, recounted after a change by this
 * connection, another one or another process, or a rolled-back transaction. `budget.set` counts N once.
 */
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { appDatabase, DATABASE_FILE, openAppDatabase } from '../../../electron/services/db/appDatabase';
import * as datasets from '../../../electron/services/ledger/datasets';
import { datasetWith, MIXED_SUBJECTS, tempServices } from '../../helpers/services';

vi.mock('../../../electron/services/ledger/datasets', async (actual) => {
  const module = await actual<typeof datasets>();
  return { ...module, privacyUnitCount: vi.fn(module.privacyUnitCount) };
});

const { dataDir, ctx, remove } = tempServices('veil-units-');
afterAll(remove);

/** N recounted from every row in JS: records, or distinct subjects plus one per subject-less record. */
async function recount(name: string): Promise<number | null> {
  const db = await appDatabase(ctx);
  const { id, unit } = (await db.get<{ id: number; unit: string }>('SELECT id, privacy_unit AS unit FROM datasets WHERE name = $name', { name }))!;
  const rows = await db.all<{ split: string; subject: string | null }>('SELECT split, subject_id AS subject FROM records WHERE dataset_id = $id', { id });
  const priv = rows.filter((r) => r.split === 'private');
  const n = unit === 'record' ? priv.length : new Set(priv.filter((r) => r.subject !== null).map((r) => r.subject)).size + priv.filter((r) => r.subject === null).length;
  return n > 0 ? n : null;
}

/** One statement from a separate process's view: its own sqlite3 handle, opened and closed around it. */
function query(file: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const handle = new sqlite3.Database(file, (err) => (err ? reject(err) : handle.run(sql, (e: Error | null) => handle.close(() => (e ? reject(e) : resolve())))));
  });
}

const served = async (name: string) => (await callMethod(ctx, 'budget.privacyUnits', { dataset: name })).n;
const ids = async (name: string, search: string) => (await callMethod(ctx, 'vault.records', { dataset: name, filter: { search } })).rows.map((r) => r.id);

describe('privacy units N', () => {
  beforeAll(async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'people', ...MIXED_SUBJECTS.dataset });
    await datasetWith(ctx, { name: 'other', labels: ['a'], privacyUnit: 'subject' }, [{ text: 'other dataset note', label: 'a', subject: 'ann' }]);
  });

  it('equals a recount of every row after each change', async () => {
    const check = async (expected: number | null) => {
      expect(await recount('people')).toBe(expected);
      expect(await served('people')).toBe(expected);
    };
    await check(null);
    await callMethod(ctx, 'vault.addRecords', { dataset: 'people', records: MIXED_SUBJECTS.records });
    await check(4); // ann, bob and two subject-less records; carl is public, 'other' is another dataset
    await callMethod(ctx, 'vault.bulk', { dataset: 'people', target: { ids: await ids('people', 'nobody') }, action: { kind: 'delete' } });
    await check(2);
    await callMethod(ctx, 'vault.bulk', { dataset: 'people', target: { ids: await ids('people', 'carl') }, action: { kind: 'move', split: 'private' } });
    await check(3);
    await callMethod(ctx, 'vault.bulk', { dataset: 'people', target: { ids: await ids('people', 'bob') }, action: { kind: 'move', split: 'held-out' } });
    await check(2);
    const db = await appDatabase(ctx);
    await db.run("UPDATE records SET subject_id = 'ann' WHERE text = 'carl public'"); // a subject edit
    await check(1);
    await db.run("UPDATE records SET subject_id = NULL WHERE text = 'ann two'");
    await check(2);
    await callMethod(ctx, 'vault.updateDataset', { dataset: 'people', privacyUnit: 'record' });
    await check(3);
    expect(await served('other')).toBe(1);
  });

  it('is kept while nothing changed, and follows another connection, another process and a rolled-back transaction', async () => {
    const db = await appDatabase(ctx);
    const other = (await db.get<{ id: number }>("SELECT id FROM datasets WHERE name = 'other'"))!.id;
    const sqls = vi.spyOn(db, 'get');
    expect(await datasets.privacyUnitCount(db, other)).toBe(1);
    sqls.mockClear();
    expect(await datasets.privacyUnitCount(db, other)).toBe(1);
    expect(sqls.mock.calls.map(([sql]) => sql).filter((sql) => sql.includes('COUNT'))).toEqual([]); // nothing changed: not counted again
    sqls.mockRestore();

    const second = await openAppDatabase(join(dataDir, DATABASE_FILE)); // as an import's own connection or the CLI would
    await second.run("INSERT INTO records (dataset_id, text, split, subject_id, content_hash, created_at, updated_at) VALUES ($id, 'x', 'private', 'bea', 'x', '', '')", { id: other });
    expect(await datasets.privacyUnitCount(db, other)).toBe(2);
    await second.run("UPDATE records SET subject_id = 'ann' WHERE dataset_id = $id AND text = 'x'", { id: other });
    expect(await datasets.privacyUnitCount(db, other)).toBe(1);
    await second.close();
    await query(join(dataDir, DATABASE_FILE), "UPDATE records SET subject_id = NULL WHERE text = 'x'"); // another process
    expect(await datasets.privacyUnitCount(db, other)).toBe(2);

    // Counted inside a transaction that then rolls back: the count after it is of the committed rows.
    await expect(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO records (dataset_id, text, split, content_hash, created_at, updated_at) VALUES ($id, 'y', 'private', 'y', '', '')", { id: other });
        expect(await datasets.privacyUnitCount(tx, other)).toBe(3);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await datasets.privacyUnitCount(db, other)).toBe(2);
    expect(await recount('other')).toBe(2);
  });

  it('is counted from the (dataset, split, subject) index alone', async () => {
    const db = await appDatabase(ctx);
    const plan = await db.all<{ detail: string }>("EXPLAIN QUERY PLAN SELECT COUNT(DISTINCT subject_id) FROM records WHERE dataset_id = 1 AND split = 'private' AND subject_id IS NOT NULL");
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/COVERING INDEX records_by_split_subject/);
  });

  it('budget.set counts N once, with the default δ or a given one', async () => {
    const count = vi.mocked(datasets.privacyUnitCount);
    count.mockClear();
    const first = await callMethod(ctx, 'budget.set', { dataset: 'people', epsilon: 2 });
    expect(count).toHaveBeenCalledTimes(1);
    expect(first.budget.privacyUnits).toBe(await recount('people'));
    count.mockClear();
    await callMethod(ctx, 'budget.set', { dataset: 'people', epsilon: 3, delta: 1e-6 });
    expect(count).toHaveBeenCalledTimes(1);
  });
});
