/**
 * The record table's pages (`vault.records`, 200 rows; vault/recordPaging.ts) at 100,000 and
 * 1,000,000 records (VEIL_BENCH_SKIP_1M=1: 100,000 only), written by SQL (labels spam / ham /
 * none, three splits, PII kinds on a tenth, tags on a fiftieth, ≈ 500 characters of text with
 * varied words, full-text indexed in one statement), for the sorts and filters of the Vault page.
 * For each: the first, middle and last page, each timed
 * - as a jump: the total already counted (the same filter under another sort read first), no page
 *   boundary kept near it — the cost of dragging the scrollbar there;
 * - after a change (this connection wrote a row): count and page;
 * - scrolling on: the next page, from the boundary the jump kept;
 * and the same page by the code before (in-run reference): the dataset looked up with its split
 * counts, a COUNT and `LIMIT 200 OFFSET k` per request, without migration 21's indexes (dropped
 * for it). Medians of 7 (reference: of 3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { appDatabase } from '../electron/services/db/appDatabase';
import type { Database } from '../electron/services/db/database';
import { recordOrderIndexesMigration } from '../electron/services/db/migrations/021_record_order_indexes';
import { findDataset } from '../electron/services/vault/datasets';
import type { RecordFilter } from '../electron/shared/api/vault';
import { median } from './stats';
import { tableRow, type TableRow } from './table';

const PAGE = 200;
const TARGET_SECONDS = 0.05;
const WORDS = ['patient', 'reported', 'pain', 'knee', 'invoice', 'attached', 'review', 'meeting', 'budget', 'account', 'suspended', 'verify', 'details', 'thursday'];

type Order = 'id' | 'label' | 'split';
interface Case {
  name: string;
  filter: RecordFilter;
  order: Order;
  descending: boolean;
}
const CASES: Case[] = [
  { name: 'by id', filter: {}, order: 'id', descending: false },
  { name: 'by label', filter: {}, order: 'label', descending: false },
  { name: 'by split, descending', filter: {}, order: 'split', descending: true },
  { name: 'private split, by label', filter: { splits: ['private'] }, order: 'label', descending: false },
  { name: 'two labels, by id', filter: { labels: ['spam', ''] }, order: 'id', descending: false },
  { name: 'any PII, by id', filter: { pii: ['any'] }, order: 'id', descending: false },
  { name: 'search "invoice", by id', filter: { search: 'invoice' }, order: 'id', descending: false },
];
const POSITIONS = ['first', 'middle', 'last'] as const;

/** `records` rows into dataset `id`, full-text indexed by one statement (the per-row trigger dropped meanwhile). */
async function fill(db: Database, id: number, records: number): Promise<void> {
  const trigger = (await db.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'records_fts_insert'"))!.sql;
  await db.transaction(async (tx) => {
    await tx.exec('DROP TRIGGER records_fts_insert');
    await tx.run(
      `WITH RECURSIVE w(k, word) AS (SELECT key, value FROM json_each($words)), n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $records)
       INSERT INTO records (dataset_id, text, label, split, pii_kinds, tags_json, content_hash, created_at, updated_at)
       SELECT $id, 'record ' || i || ' ' || (SELECT word FROM w WHERE k = i % 14) || ' ' || (SELECT word FROM w WHERE k = (i * 7) % 13) || ' ' || substr(replace(hex(zeroblob(100)), '00', 'lorem '), 1, 440),
         CASE WHEN i % 97 = 0 THEN NULL WHEN i % 3 = 0 THEN 'spam' ELSE 'ham' END,
         CASE i % 10 WHEN 0 THEN 'public' WHEN 1 THEN 'held-out' ELSE 'private' END,
         CASE WHEN i % 10 = 0 THEN 'email' ELSE '' END, CASE WHEN i % 50 = 0 THEN '["checked"]' ELSE '[]' END,
         'h' || i, 'then', 'then' FROM n`,
      { id, records, words: JSON.stringify(WORDS) },
    );
    await tx.run('INSERT INTO records_fts (rowid, text) SELECT id, text FROM records WHERE dataset_id = $id', { id });
    await tx.exec(trigger);
  });
}

/** Median milliseconds of `runs` calls of `fn`, each after `before` (not timed). */
async function ms(runs: number, fn: (i: number) => Promise<unknown>, before: (i: number) => Promise<unknown> = async () => undefined): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await before(i);
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  return +median(times).toFixed(2);
}

/** The code before: vault.records looked the dataset up with its split counts, counted, and read `LIMIT OFFSET` (its filter SQL for these filters). */
async function before(db: Database, name: string, c: Case, offset: number): Promise<void> {
  const { id } = await findDataset(db, name);
  const clauses = ['r.dataset_id = $id'];
  const params: Record<string, unknown> = { id };
  if (c.filter.splits) [clauses[1], params.splits] = ['r.split IN (SELECT value FROM json_each($splits))', JSON.stringify(c.filter.splits)];
  if (c.filter.labels) [clauses[1], params.labels] = [`COALESCE(r.label, '') IN (SELECT value FROM json_each($labels))`, JSON.stringify(c.filter.labels)];
  if (c.filter.pii) clauses[1] = `r.pii_kinds <> ''`;
  if (c.filter.search) [clauses[1], params.search] = ['r.id IN (SELECT rowid FROM records_fts WHERE records_fts MATCH $search)', `"${c.filter.search}"`];
  const where = clauses.join(' AND ');
  await db.get(`SELECT COUNT(*) AS n FROM records r WHERE ${where}`, params);
  const direction = c.descending ? 'DESC' : 'ASC';
  const order = `ORDER BY r.${c.order} ${direction}, r.id ${direction}`;
  await db.all(`SELECT r.* FROM records r WHERE r.id IN (SELECT r.id FROM records r WHERE ${where} ${order} LIMIT $limit OFFSET $offset) ${order}`, { ...params, limit: PAGE, offset });
}

async function size(dir: string, records: number, table: TableRow[]): Promise<object> {
  const ctx = new ServiceContext(ensureDataDir(join(dir, `data-${records}`)), 'cli');
  try {
    const name = 'bench';
    const dataset = await callMethod(ctx, 'vault.createDataset', { name, labels: ['spam', 'ham'] });
    const db = await appDatabase(ctx);
    const buildStart = performance.now();
    await fill(db, dataset.id, records);
    const buildSeconds = (performance.now() - buildStart) / 1000;
    const change = () => db.run("UPDATE datasets SET updated_at = 'then' WHERE id = $id", { id: dataset.id });
    const read = (c: Case, offset: number, order = c.order) => callMethod(ctx, 'vault.records', { dataset: name, filter: c.filter, order, descending: c.descending, offset, limit: PAGE });
    const result: Record<string, object> = {};
    for (const c of CASES) {
      const total = (await read(c, 0)).total;
      const offsets = { first: 0, middle: Math.floor(total / 2 / PAGE) * PAGE, last: Math.max(0, total - PAGE) };
      const other: Order = c.order === 'id' ? 'label' : 'id';
      const positions: Record<string, object> = {};
      for (const position of POSITIONS) {
        const offset = offsets[position];
        // A change drops the kept total and boundaries; another sort of the same filter counts it again.
        const jump = await ms(7, () => read(c, offset), async () => (await change(), await read(c, 0, other)));
        const afterChange = await ms(7, () => read(c, offset), change);
        const next = offset + PAGE < total ? await ms(7, (i) => read(c, offset + PAGE * (i + 1)), async (i) => i === 0 && (await change(), await read(c, offset))) : null;
        positions[position] = { offset, jumpMs: jump, afterChangeMs: afterChange, nextPageMs: next };
      }
      result[c.name] = { total, ...positions };
    }
    // The code before, on the schema before: migration 21's indexes dropped, then re-created.
    for (const index of recordOrderIndexesMigration.sql.matchAll(/CREATE INDEX (\w+)/g)) await db.exec(`DROP INDEX ${index[1]}`);
    for (const c of CASES) {
      const entry = result[c.name] as Record<string, { offset: number; jumpMs: number; afterChangeMs: number; beforeMs?: number }>;
      for (const position of POSITIONS) entry[position].beforeMs = await ms(3, () => before(db, name, c, entry[position].offset));
      const worst = (key: 'jumpMs' | 'afterChangeMs' | 'beforeMs') => Math.max(...POSITIONS.map((p) => entry[p][key]!));
      const label = `record table page, ${records.toLocaleString('en')} records, ${c.name}: slowest of first / middle / last`;
      table.push(tableRow(`${label} (jump)`, worst('jumpMs') / 1000, TARGET_SECONDS, { what: 'the code before', seconds: worst('beforeMs') / 1000 }));
      table.push(tableRow(`${label} (after a change: count + page)`, worst('afterChangeMs') / 1000, TARGET_SECONDS, { what: 'the code before', seconds: worst('beforeMs') / 1000 }));
    }
    return { records, buildSeconds: +buildSeconds.toFixed(1), cases: result };
  } finally {
    await ctx.close();
  }
}

export async function run(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-pages-'));
  try {
    const table: TableRow[] = [];
    const at100k = await size(dir, 100_000, table);
    const at1M = process.env.VEIL_BENCH_SKIP_1M === '1' ? 'skipped (VEIL_BENCH_SKIP_1M=1)' : await size(dir, 1_000_000, table);
    return { table, pageRows: PAGE, at100k, at1M };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
