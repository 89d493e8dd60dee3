/**
 * The record table's pages (vault/recordPaging.ts) on real SQLite: for every filter and sort the
 * Vault page offers, each page equals the same slice of an independent oracle (every row of the
 * dataset read once, filtered and sorted in JS — NULL labels first, ids breaking ties — the
 * search's ids from the full-text index): every page scrolled down and back up, and (fast-check)
 * any sequence of jumps of any page size, which exercises the start, the end and the kept page
 * boundaries. The total is counted (or summed from migration 21's per-split-and-label counts)
 * once per filter while the database is unchanged, and the total and the boundaries go stale after
 * rows are added, deleted or relabelled by another connection; the counts stay equal to a recount.
 * Migration 21's indexes answer the pages: no sort of the dataset, no table rows read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { appDatabase, DATABASE_FILE } from '../../../electron/services/db/appDatabase';
import type { Database } from '../../../electron/services/db/database';
import { pageRecords } from '../../../electron/services/vault/recordPaging';
import type { RecordFilter } from '../../../electron/shared/api/vault';

const RECORDS = 3_000;
const dir = mkdtempSync(join(tmpdir(), 'veil-record-pages-'));
const ctx = new ServiceContext(ensureDataDir(dir), 'cli');
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

type Order = 'id' | 'label' | 'split' | 'updated';
interface Row {
  id: number;
  label: string | null;
  split: string;
  pii_kinds: string;
  tags_json: string;
  updated_at: string;
}

/** The search strings the tests use, as FTS5 queries (recordFilter.ts quotes each word). */
const FTS = { invoice: '"invoice"', 'pain*': '"pain"*', 'knee review': '"knee" "review"' } as const;
type Search = keyof typeof FTS;

/** Every row of the dataset in the filter and order, by JS. */
async function oracle(filter: RecordFilter, order: Order, descending: boolean): Promise<number[]> {
  const db = await appDatabase(ctx);
  const rows = await db.all<Row>("SELECT id, label, split, pii_kinds, tags_json, updated_at FROM records WHERE dataset_id = (SELECT id FROM datasets WHERE name = 'table')");
  const hits = filter.search ? new Set((await db.all<{ id: number }>('SELECT rowid AS id FROM records_fts WHERE records_fts MATCH $q', { q: FTS[filter.search as Search] })).map((r) => r.id)) : null;
  const kept = rows.filter(
    (r) =>
      (!hits || hits.has(r.id)) &&
      (!filter.labels?.length || filter.labels.includes(r.label ?? '')) &&
      (!filter.splits?.length || filter.splits.includes(r.split as never)) &&
      (!filter.pii?.length || (filter.pii.includes('any') ? r.pii_kinds !== '' : filter.pii.some((k) => r.pii_kinds.split(',').includes(k)))) &&
      (!filter.tags?.length || (JSON.parse(r.tags_json) as string[]).some((t) => filter.tags!.includes(t))),
  );
  const key = (r: Row) => (order === 'id' ? null : order === 'updated' ? r.updated_at : r[order]);
  const compare = (a: Row, b: Row) => {
    const [x, y] = [key(a), key(b)];
    const byKey = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
    return byKey || a.id - b.id;
  };
  return kept.sort((a, b) => (descending ? compare(b, a) : compare(a, b))).map((r) => r.id);
}

const page = async (filter: RecordFilter, order: Order, descending: boolean, offset: number, limit: number) => {
  const result = await callMethod(ctx, 'vault.records', { dataset: 'table', filter, order, descending, offset, limit });
  return { total: result.total, ids: result.rows.map((r) => r.id) };
};

/** The filters and sorts of the Vault page (RecordFilters.tsx, RecordTable.tsx), and the API's `updated`. */
const FILTERS: RecordFilter[] = [
  {},
  { splits: ['private'] },
  { splits: ['private', 'held-out'] },
  { labels: ['spam'] },
  { labels: [''] },
  { labels: ['ham', ''] },
  { pii: ['any'] },
  { pii: ['phone'] },
  { tags: ['checked'] },
  { search: 'invoice' },
  { search: 'pain*', splits: ['public'], labels: ['ham'] },
];
const ORDERS: Order[] = ['id', 'label', 'split', 'updated'];

/** One statement from another connection (its own sqlite3 handle, as another Veil process). */
function elsewhere(sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const handle = new sqlite3.Database(join(dir, DATABASE_FILE), (err) => (err ? reject(err) : handle.exec(sql, (e: Error | null) => handle.close(() => (e ? reject(e) : resolve())))));
  });
}

/** The SQL of every get() the pages' reads (Database.read) run from now on (until vi.restoreAllMocks). */
function readSqls(db: Database): string[] {
  const read = db.read.bind(db);
  const sqls: string[] = [];
  vi.spyOn(db, 'read').mockImplementation((work) => read((q) => work({ ...q, get: (sql, params) => (sqls.push(sql), q.get(sql, params)) })));
  return sqls;
}

describe('record table pages', () => {
  beforeAll(async () => {
    const table = await callMethod(ctx, 'vault.createDataset', { name: 'table', labels: ['spam', 'ham'] });
    const beside = await callMethod(ctx, 'vault.createDataset', { name: 'beside', labels: ['spam', 'ham'] });
    const db = await appDatabase(ctx);
    // Rows of both datasets interleaved (ids of one dataset are not contiguous); labels with NULLs,
    // three splits, PII kinds, tags and update times with many ties.
    await db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${RECORDS + RECORDS / 6})
      INSERT INTO records (dataset_id, text, label, split, pii_kinds, tags_json, content_hash, created_at, updated_at)
      SELECT CASE WHEN i % 7 = 3 THEN ${beside.id} ELSE ${table.id} END,
        'record ' || i || ' ' || CASE i % 5 WHEN 0 THEN 'invoice attached' WHEN 1 THEN 'knee pain' WHEN 2 THEN 'painful knee review' WHEN 3 THEN 'meeting review' ELSE 'budget' END,
        CASE WHEN i % 11 = 0 THEN NULL WHEN i % 3 = 0 THEN 'spam' ELSE 'ham' END,
        CASE i % 4 WHEN 0 THEN 'public' WHEN 1 THEN 'held-out' ELSE 'private' END,
        CASE WHEN i % 13 = 0 THEN 'email,phone' WHEN i % 6 = 0 THEN 'email' ELSE '' END,
        CASE WHEN i % 9 = 0 THEN '["checked","later"]' WHEN i % 10 = 0 THEN '["later"]' ELSE '[]' END,
        'h' || i, 'then', printf('2026-01-%02d', i % 28 + 1) FROM n`);
  });

  it('serves every page as the oracle orders it, scrolled down and back up, for each filter and sort', async () => {
    for (const filter of FILTERS) {
      for (const order of ORDERS) {
        for (const descending of [false, true]) {
          const expected = await oracle(filter, order, descending);
          const pages = Math.ceil(expected.length / 200);
          for (const p of [...Array(pages).keys(), ...[...Array(pages).keys()].reverse()]) {
            const got = await page(filter, order, descending, p * 200, 200);
            expect(got.total).toBe(expected.length);
            expect(got.ids, `${JSON.stringify(filter)} ${order} ${descending ? 'desc' : 'asc'} page ${p}`).toEqual(expected.slice(p * 200, p * 200 + 200));
          }
        }
      }
    }
  }, 300_000);

  it('serves any sequence of jumps of any page size as the oracle slices it (fast-check)', async () => {
    const expectedOf = new Map<string, number[]>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILTERS),
        fc.constantFrom(...ORDERS),
        fc.boolean(),
        fc.array(fc.record({ permille: fc.integer({ min: 0, max: 1050 }), limit: fc.integer({ min: 1, max: 400 }) }), { minLength: 1, maxLength: 10 }),
        async (filter, order, descending, jumps) => {
          const key = JSON.stringify([filter, order, descending]);
          const expected = expectedOf.get(key) ?? (await oracle(filter, order, descending));
          expectedOf.set(key, expected);
          for (const { permille, limit } of jumps) {
            const offset = Math.floor((permille / 1000) * expected.length);
            const got = await page(filter, order, descending, offset, limit);
            expect(got).toEqual({ total: expected.length, ids: expected.slice(offset, offset + limit) });
          }
        },
      ),
      { numRuns: 150, seed: 21 },
    );
  }, 300_000);

  it('counts a filter once while nothing changes; another connection’s inserts, deletes and edits make the total and the boundaries stale; the kept counts equal a recount', async () => {
    const db = await appDatabase(ctx);
    const sqls = readSqls(db);
    const counts = () => sqls.filter((sql) => /COUNT\(\*\)|FROM record_counts/.test(sql)).length;
    // Totals summed from record_counts (a split) and counted (a tag).
    const filters: RecordFilter[] = [{ splits: ['private'] }, { tags: ['later'] }];
    const check = async (offset: number) => {
      for (const filter of filters) {
        const expected = await oracle(filter, 'label', false);
        expect(await page(filter, 'label', false, offset, 200)).toEqual({ total: expected.length, ids: expected.slice(offset, offset + 200) });
      }
    };
    try {
      await elsewhere("UPDATE datasets SET updated_at = 'touched' WHERE name = 'beside'");
      await check(0);
      await check(200);
      await check(400);
      expect(counts()).toBe(2);
      // A record labelled "ham" with a small id moves to spam: the "ham" rows after it shift by one.
      const moved = (await db.get<{ id: number }>("SELECT MIN(id) AS id FROM records WHERE label = 'ham' AND split = 'private'"))!.id;
      await elsewhere(`UPDATE records SET label = 'spam' WHERE id = ${moved}`);
      await check(200);
      await check(400);
      await elsewhere(`INSERT INTO records (dataset_id, text, label, split, content_hash, created_at, updated_at)
        SELECT id, 'added elsewhere', NULL, 'private', 'added-1', 'now', 'now' FROM datasets WHERE name = 'table'`);
      await check(400);
      await check(600);
      await elsewhere(`DELETE FROM records WHERE id IN (SELECT id FROM records WHERE label IS NULL AND split = 'private' ORDER BY id LIMIT 3)`);
      await check(600);
      await check(0);
      expect(counts()).toBe(8);
      await callMethod(ctx, 'vault.deleteDataset', { dataset: 'beside', compact: false });
      const kept = await db.all("SELECT dataset_id, split, label, n FROM record_counts WHERE n <> 0 ORDER BY 1, 2, 3");
      expect(kept).toEqual(await db.all("SELECT dataset_id, split, COALESCE(label, '') AS label, COUNT(*) AS n FROM records GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"));
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('sums record_counts only for a filter of splits and labels: any other field set (a field added later too) is counted for real', async () => {
    const db = await appDatabase(ctx);
    const { id } = (await db.get<{ id: number }>("SELECT id FROM datasets WHERE name = 'table'"))!;
    const sqls = readSqls(db);
    const totalOf = async (filter: RecordFilter) => {
      sqls.length = 0;
      const { total } = await pageRecords(db, id, { filter, offset: 0, limit: 1, order: 'id', descending: false });
      return { total, by: sqls.some((sql) => sql.includes('FROM record_counts')) ? 'sum' : sqls.some((sql) => sql.includes('COUNT(*)')) ? 'count' : 'kept' };
    };
    try {
      const splits = (await oracle({ splits: ['private'] }, 'id', false)).length;
      expect(await totalOf({ splits: ['private'], labels: [], tags: [] })).toEqual({ total: splits, by: 'sum' });
      expect(await totalOf({ splits: ['private'], subjects: ['nobody'] })).toEqual({ total: 0, by: 'count' });
      // A field the schema does not know yet (filterSql ignores it here): still counted, never summed.
      expect(await totalOf({ splits: ['private'], later: ['x'] } as RecordFilter)).toEqual({ total: splits, by: 'count' });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('skips, seeks and counts on migration 21’s indexes: no sort of the dataset, no records table rows but the page’s', async () => {
    const db = await appDatabase(ctx);
    const plan = async (sql: string, params = {}) => (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, { datasetId: 1, limit: 200, skip: 1000, ...params })).map((r) => r.detail).join('\n');
    const inner = (where: string, order: string) => plan(`SELECT r.id FROM records r WHERE r.dataset_id = $datasetId${where} ORDER BY ${order} LIMIT $limit OFFSET $skip`);
    expect(await inner('', 'r.id DESC')).toMatch(/COVERING INDEX records_in_id_order/);
    expect(await inner(" AND r.split = 'private' AND r.pii_kinds <> ''", 'r.label DESC, r.id DESC')).toMatch(/COVERING INDEX records_in_label_order/);
    expect(await inner(" AND r.label = 'ham'", 'r.split, r.id')).toMatch(/COVERING INDEX records_in_split_order/);
    const seek = await plan(`SELECT r.id, r.label FROM records r WHERE r.dataset_id = $datasetId AND r.label = $seekKey AND r.id > $seekId
      UNION ALL SELECT r.id, r.label FROM records r WHERE r.dataset_id = $datasetId AND r.label > $seekKey ORDER BY 2, 1 LIMIT $limit OFFSET $skip`, { seekKey: 'ham', seekId: 10 });
    expect(seek).toMatch(/records_in_label_order \(dataset_id=\? AND label=\? AND id>\?\)/);
    expect(seek).toMatch(/records_in_label_order \(dataset_id=\? AND label>\?\)/);
    for (const detail of [await inner('', 'r.id'), await inner('', 'r.label, r.id'), await inner('', 'r.split DESC, r.id DESC'), seek]) expect(detail).not.toMatch(/TEMP B-TREE|SCAN r\b/);
  });
});

describe('a page read while a write lands', () => {
  const ticks = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('equals an OFFSET read of the state before or after a concurrent bulk delete (this process or another), never throws', async () => {
    const db = await appDatabase(ctx);
    const outcomes = new Set<string>();
    for (let delay = 0; delay < 16; delay++) {
      for (const recordsFirst of [true, false]) {
        for (const writer of ['bulk', 'elsewhere'] as const) {
          const name = `racing-${delay}-${recordsFirst ? 'r' : 'w'}-${writer}`;
          const { id } = await callMethod(ctx, 'vault.createDataset', { name });
          await callMethod(ctx, 'vault.addRecords', { dataset: name, records: Array.from({ length: 50 }, (_, i) => ({ text: `${name} record ${i}` })) });
          const ids = (await db.all<{ id: number }>('SELECT id FROM records WHERE dataset_id = $id ORDER BY id LIMIT 10 OFFSET 40', { id })).map((r) => r.id);
          const records = () => callMethod(ctx, 'vault.records', { dataset: name, offset: 40, limit: 10 });
          expect((await records()).rows.map((r) => r.id)).toEqual(ids); // the total and the page's boundaries kept
          const write = (): Promise<unknown> => (writer === 'bulk' ? callMethod(ctx, 'vault.bulk', { dataset: name, target: { filter: {} }, action: { kind: 'delete' } }) : elsewhere(`DELETE FROM records WHERE dataset_id = ${id}`));
          const [got] = recordsFirst ? await Promise.all([ticks(delay).then(records), write()]) : await Promise.all([records(), ticks(delay).then(write)]);
          const seen = { total: got.total, ids: got.rows.map((r) => r.id) };
          expect([{ total: 50, ids }, { total: 0, ids: [] }]).toContainEqual(seen);
          outcomes.add(String(seen.total));
        }
      }
    }
    expect(outcomes).toEqual(new Set(['0', '50'])); // both orders happened
  }, 120_000);
});
