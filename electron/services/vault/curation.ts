/**
 * Curation operations over many records: bulk move / tag / untag / relabel / delete by ids
 * or by filter, statistics for the charts, and hard deletion with compaction (VACUUM and a
 * truncating WAL checkpoint, so deleted text does not linger in free pages or the WAL).
 */
import type { z } from 'zod';
import type { bulkActionSchema, RecordFilter, statsSchema } from '../../shared/api/vault';
import type { Database, Params, Queryable } from '../db/database';
import { filterSql } from './recordFilter';

type BulkAction = z.infer<typeof bulkActionSchema>;
export type BulkTarget = { ids: number[] } | { filter: RecordFilter };

function targetSql(datasetId: number, target: BulkTarget): { where: string; params: Params } {
  if ('ids' in target) return { where: 'r.dataset_id = $datasetId AND r.id IN (SELECT value FROM json_each($ids))', params: { datasetId, ids: JSON.stringify(target.ids) } };
  return filterSql(datasetId, target.filter);
}

const ACTION_SQL: Record<BulkAction['kind'], string> = {
  move: 'UPDATE records SET split = $split, updated_at = $now WHERE id IN (SELECT r.id FROM records r WHERE {where})',
  tag: `UPDATE records SET tags_json = json_insert(tags_json, '$[#]', $tag), updated_at = $now
    WHERE id IN (SELECT r.id FROM records r WHERE {where}) AND NOT EXISTS (SELECT 1 FROM json_each(records.tags_json) WHERE value = $tag)`,
  untag: `UPDATE records SET tags_json = (SELECT json_group_array(value) FROM json_each(records.tags_json) WHERE value <> $tag), updated_at = $now
    WHERE id IN (SELECT r.id FROM records r WHERE {where}) AND EXISTS (SELECT 1 FROM json_each(records.tags_json) WHERE value = $tag)`,
  label: 'UPDATE records SET label = $label, updated_at = $now WHERE id IN (SELECT r.id FROM records r WHERE {where})',
  delete: 'DELETE FROM records WHERE id IN (SELECT r.id FROM records r WHERE {where})',
};
const HISTORY = `INSERT INTO record_history (record_id, at, action, detail_json)
  SELECT r.id, $now, $action, $detail FROM records r WHERE {where}`;

/** Applies `action` to the target records in one transaction; returns how many changed. */
export async function bulk(tx: Queryable, datasetId: number, target: BulkTarget, action: BulkAction): Promise<number> {
  const { where, params } = targetSql(datasetId, target);
  const now = new Date().toISOString();
  // sqlite3 refuses a bound name the statement lacks: DELETE takes no timestamp.
  const values: Params = action.kind === 'delete' ? { ...params } : { ...params, now };
  if (action.kind === 'move') values.split = action.split;
  if (action.kind === 'tag' || action.kind === 'untag') values.tag = action.tag;
  if (action.kind === 'label') values.label = action.label;
  if (action.kind !== 'delete') {
    const { kind, ...detail } = action;
    await tx.run(HISTORY.replace('{where}', where), { ...params, now, action: kind, detail: JSON.stringify(detail) });
  }
  return (await tx.run(ACTION_SQL[action.kind].replace('{where}', where), values)).changes;
}

/** Splits and labels from record_counts (migration 21: records per dataset, split and label — '' for none — kept by triggers). */
const SPLITS = `SELECT split, SUM(n) AS n FROM record_counts WHERE dataset_id = $id GROUP BY split`;
const LABELS = `SELECT NULLIF(label, '') AS label, SUM(n * (split = 'private')) AS private, SUM(n * (split = 'public')) AS public,
  SUM(n * (split = 'held-out')) AS held_out FROM record_counts WHERE dataset_id = $id GROUP BY label HAVING SUM(n) > 0 ORDER BY label`;
const PII = `SELECT value AS kind, COUNT(*) AS n FROM records, json_each('["' || replace(pii_kinds, ',', '","') || '"]')
  WHERE dataset_id = $id AND pii_kinds <> '' GROUP BY value ORDER BY value`;
const TAGS = `SELECT t.value AS tag, COUNT(*) AS n FROM records, json_each(records.tags_json) t WHERE dataset_id = $id GROUP BY t.value ORDER BY n DESC LIMIT 200`;
const SUBJECTS = `SELECT COUNT(DISTINCT subject_id) AS n FROM records WHERE dataset_id = $id AND split = 'private' AND subject_id IS NOT NULL`;

export async function stats(q: Queryable, id: number): Promise<z.infer<typeof statsSchema>> {
  const splits = new Map((await q.all<{ split: string; n: number }>(SPLITS, { id })).map((r) => [r.split, r.n]));
  const labels = await q.all<{ label: string | null; private: number; public: number; held_out: number }>(LABELS, { id });
  return {
    splits: { private: splits.get('private') ?? 0, public: splits.get('public') ?? 0, heldOut: splits.get('held-out') ?? 0 },
    labels: labels.map((l) => ({ label: l.label, private: l.private, public: l.public, heldOut: l.held_out })),
    pii: (await q.all<{ kind: never; n: number }>(PII, { id })).map((r) => ({ kind: r.kind, records: r.n })),
    tags: (await q.all<{ tag: string; n: number }>(TAGS, { id })).map((r) => ({ tag: r.tag, records: r.n })),
    subjects: (await q.get<{ n: number }>(SUBJECTS, { id }))!.n,
  };
}

const PAGE_COUNT = 'PRAGMA page_count';
const PAGE_SIZE = 'PRAGMA page_size';

async function databaseBytes(db: Database): Promise<number> {
  const pages = (await db.get<{ page_count: number }>(PAGE_COUNT))!.page_count;
  return pages * (await db.get<{ page_size: number }>(PAGE_SIZE))!.page_size;
}

/** Rewrites the file without free pages and empties the WAL. */
export async function compact(db: Database): Promise<{ bytesBefore: number; bytesAfter: number }> {
  const bytesBefore = await databaseBytes(db);
  await db.exec(`INSERT INTO records_fts (records_fts) VALUES ('optimize'); VACUUM; PRAGMA wal_checkpoint(TRUNCATE);`);
  return { bytesBefore, bytesAfter: await databaseBytes(db) };
}
