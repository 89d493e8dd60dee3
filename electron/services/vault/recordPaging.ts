/**
 * The record table's pages (`vault.records`) at any depth of a large dataset. The rows are
 * exactly those of `ORDER BY key, id LIMIT n OFFSET k` (key: the sort column; id breaks ties in
 * the same direction), but each page is read from the nearest known position in that order:
 * - the start (OFFSET k), or the end (the reversed order, OFFSET total − k − n), whichever is
 *   nearer — so the first and the last page cost the same;
 * - a page boundary served before (keyset: rows after the boundary row's (key, id), then only
 *   the distance from it skipped) — so scrolling on from any page costs one page.
 * Skipping, seeking and the filters other than a search run on migration 21's indexes alone
 * (ids only; the page's rows are read last). The total and the boundaries are kept per connection
 * under its change stamp (db/changeStamp.ts): any change to the database drops them; without a
 * filter, or by split and label, the total is a sum of migration 21's counts. The stamp, the
 * total, the boundaries and the rows of one request are read as one unit (Database.read: one
 * snapshot), so a write landing meanwhile — on this connection or another's commit — comes
 * wholly before or wholly after the page.
 */
import type { RecordFilter, RecordRow } from '../../shared/api/vault';
import { changeStamp, StampedCache } from '../db/changeStamp';
import { Database, type Params, type Queryable } from '../db/database';
import { filterSql } from './recordFilter';
import { toRow, type RecordDbRow } from './records';

/** Sort orders: the column compared before the id (null: the id alone). */
const KEY_COLUMN = { id: null, label: 'label', split: 'split', updated: 'updated_at' } as const;
export type RecordOrder = keyof typeof KEY_COLUMN;

export interface RecordPage {
  filter: RecordFilter;
  offset: number;
  limit: number;
  order: RecordOrder;
  descending: boolean;
}

/** The rows from (key, id) on (`from`: that row included; else after it), in the query's order, start at `offset`. */
interface Boundary {
  offset: number;
  key: string | number;
  id: number;
  from: boolean;
}

const MAX_BOUNDARIES = 256;
const totals = new StampedCache<number>(64);
const boundaries = new StampedCache<Boundary[]>(16);

/** `ORDER BY` of the order, forwards or reversed. */
function orderBy(order: RecordOrder, descending: boolean): string {
  const direction = descending ? 'DESC' : 'ASC';
  const column = KEY_COLUMN[order];
  return column ? `ORDER BY r.${column} ${direction}, r.id ${direction}` : `ORDER BY r.id ${direction}`;
}

/**
 * Ids of `limit` rows, `skip` into the order from a boundary on. Sorting by a column, the rows
 * of the boundary's key from its id on, then the rows of later keys: two seeks on the column's
 * index merged in order (SQLite does not seek on a row value (column, id) over an index that
 * names id). A NULL label (sorted first) is never a boundary key; rows with one that follow a
 * boundary (labels descending) are left out and make the page short: see pageRecords.
 */
function idsFrom(where: string, page: RecordPage, from: Boundary): string {
  const column = KEY_COLUMN[page.order];
  const direction = page.descending ? 'DESC' : 'ASC';
  const op = page.descending ? '<' : '>';
  const sameKeyOn = `r.id ${op}${from.from ? '=' : ''} $seekId`;
  if (!column) return `SELECT r.id FROM records r WHERE ${where} AND ${sameKeyOn} ORDER BY r.id ${direction} LIMIT $limit OFFSET $skip`;
  return `SELECT r.id, r.${column} FROM records r WHERE ${where} AND r.${column} = $seekKey AND ${sameKeyOn}
    UNION ALL SELECT r.id, r.${column} FROM records r WHERE ${where} AND r.${column} ${op} $seekKey
    ORDER BY 2 ${direction}, 1 ${direction} LIMIT $limit OFFSET $skip`;
}

interface Read {
  db: Queryable;
  where: string;
  params: Params;
  page: RecordPage;
}

/** `limit` rows from `skip` rows into the order (reversed: counted from its end), or from a boundary on; returned in the page's order. */
function read({ db, where, params, page }: Read, skip: number, limit: number, { reversed = false, from }: { reversed?: boolean; from?: Boundary } = {}): Promise<RecordDbRow[]> {
  const ids = from
    ? `SELECT id FROM (${idsFrom(where, page, from)})`
    : `SELECT r.id FROM records r WHERE ${where} ${orderBy(page.order, page.descending !== reversed)} LIMIT $limit OFFSET $skip`;
  return db.all<RecordDbRow>(`SELECT r.* FROM records r WHERE r.id IN (${ids}) ${orderBy(page.order, page.descending)}`, {
    ...params,
    limit,
    skip,
    ...(from && { seekId: from.id, ...(KEY_COLUMN[page.order] && { seekKey: from.key }) }),
  });
}

/** Whether the filter sets anything but splits and labels (a value, or a non-empty list): then only a COUNT answers its total. */
const readsMoreThanSplitsAndLabels = (filter: RecordFilter) =>
  Object.entries(filter).some(([field, value]) => field !== 'splits' && field !== 'labels' && value !== undefined && !(Array.isArray(value) && value.length === 0));

/**
 * How many records match: a sum over record_counts (migration 21's per dataset, split and label
 * counts, kept by triggers) when the filter reads only splits and labels, else a COUNT.
 */
async function countMatching(db: Queryable, datasetId: number, filter: RecordFilter, where: string, params: Params): Promise<number> {
  if (readsMoreThanSplitsAndLabels(filter)) {
    return (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM records r WHERE ${where}`, params))!.n;
  }
  const splits = filter.splits?.length ? ' AND split IN (SELECT value FROM json_each($splits))' : '';
  const labels = filter.labels?.length ? ' AND label IN (SELECT value FROM json_each($labels))' : '';
  const sql = `SELECT COALESCE(SUM(n), 0) AS n FROM record_counts WHERE dataset_id = $datasetId${splits}${labels}`;
  return (await db.get<{ n: number }>(sql, { datasetId, ...(splits && { splits: JSON.stringify(filter.splits) }), ...(labels && { labels: JSON.stringify(filter.labels) }) }))!.n;
}

/** The page's rows from the nearest known position, and the total matching the filter: on a Database, all read in one snapshot. */
export function pageRecords(db: Database, datasetId: number, page: RecordPage): Promise<{ total: number; rows: RecordRow[] }> {
  return db.read((q) => pageIn(q, datasetId, page, db));
}

/** pageRecords on `q`, reading in `connection`'s Database.read; the total and the boundaries are kept for `connection`. */
async function pageIn(q: Queryable, datasetId: number, page: RecordPage, connection: Database): Promise<{ total: number; rows: RecordRow[] }> {
  const { where, params } = filterSql(datasetId, page.filter);
  const count = () => countMatching(q, datasetId, page.filter, where, params);
  const filterKey = JSON.stringify([datasetId, page.filter]);
  const stamp = await changeStamp(q);
  const total = await totals.get(connection, stamp, filterKey, count);
  const known = await boundaries.get(connection, stamp, JSON.stringify([filterKey, page.order, page.descending]), async (): Promise<Boundary[]> => []);
  const n = Math.max(0, Math.min(page.limit, total - page.offset));
  if (n === 0) return { total, rows: [] };
  const query = { db: q, where, params, page };
  const fromEnd = total - page.offset - n;
  const nearest = known.reduce<Boundary | undefined>((best, b) => (b.offset <= page.offset && (!best || b.offset > best.offset) ? b : best), undefined);
  let rows: RecordDbRow[] | null = null;
  if (nearest && page.offset - nearest.offset < Math.min(page.offset, fromEnd)) {
    rows = await read(query, page.offset - nearest.offset, n, { from: nearest });
    if (rows.length < n) rows = null; // the NULL labels after a descending seek: read from an end instead
  }
  rows ??= page.offset <= fromEnd ? await read(query, page.offset, n) : await read(query, fromEnd, n, { reversed: true });
  // Never short in one snapshot (the total is of the same state); kept no boundary if it were.
  if (rows.length === n) remember(known, page.order, { offset: page.offset, row: rows[0], from: true }, { offset: page.offset + n, row: rows.at(-1)!, from: false });
  return { total, rows: rows.map(toRow) };
}

/** Keeps the boundaries at the page's first row and after its last (not at a NULL key); the newest MAX_BOUNDARIES. */
function remember(known: Boundary[], order: RecordOrder, ...marks: { offset: number; row: RecordDbRow; from: boolean }[]): void {
  const column = KEY_COLUMN[order];
  for (const { offset, row, from } of marks) {
    const key = column ? row[column] : row.id;
    if (key === null) continue;
    const index = known.findIndex((b) => b.offset === offset);
    if (index >= 0) known.splice(index, 1);
    known.push({ offset, key, id: row.id, from });
    if (known.length > MAX_BOUNDARIES) known.shift();
  }
}
