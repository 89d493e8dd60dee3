/**
 * Record rows: insertion with duplicate detection, reading, single edits with history
 * (paging through a filter: recordPaging.ts). Record text never leaves this module except to the caller
 * that asked for it (the UI, the sampler); it is never logged.
 */
import { piiFindingSchema, type PiiFinding } from '../../../core/pii/types';
import type { NewRecord, RecordRow } from '../../shared/api/vault';
import type { Queryable } from '../db/database';
import { VaultError } from './datasets';
import { contentHash, recordContentHash } from './normalise';

export interface RecordDbRow {
  id: number;
  dataset_id: number;
  text: string;
  label: string | null;
  output: string | null;
  split: RecordRow['split'];
  subject_id: string | null;
  tags_json: string;
  pii_json: string;
  updated_at: string;
}

const INSERT = `INSERT INTO records (dataset_id, text, label, output, split, subject_id, tags_json, pii_json, pii_kinds, content_hash, import_id, created_at, updated_at)
  VALUES ($datasetId, $text, $label, $output, $split, $subject, $tags, $pii, $piiKinds, $hash, NULL, $now, $now)
  ON CONFLICT (dataset_id, content_hash) DO NOTHING`;
const SELECT_ONE = 'SELECT * FROM records WHERE id = $id';
const UPDATE_FIELDS = 'UPDATE records SET label = $label, split = $split, tags_json = $tags, updated_at = $now WHERE id = $id';
const UPDATE_TEXT = `UPDATE records SET text = $text, pii_json = $pii, pii_kinds = $piiKinds, content_hash = $hash, updated_at = $now WHERE id = $id`;
const SAME_TEXT = 'SELECT id FROM records WHERE dataset_id = $datasetId AND content_hash = $hash AND id <> $id LIMIT 1';
const SET_PII = `UPDATE records SET pii_json = $pii, pii_kinds = $piiKinds WHERE id = $id`;
const INSERT_HISTORY = 'INSERT INTO record_history (record_id, at, action, detail_json) VALUES ($id, $at, $action, $detail)';
const SELECT_HISTORY = 'SELECT at, action, detail_json FROM record_history WHERE record_id = $id ORDER BY id';

export function toRow(r: RecordDbRow): RecordRow {
  return {
    id: r.id,
    text: r.text,
    label: r.label,
    output: r.output,
    split: r.split,
    subject: r.subject_id,
    tags: JSON.parse(r.tags_json) as string[],
    pii: piiFindingSchema.array().parse(JSON.parse(r.pii_json)),
    updatedAt: r.updated_at,
  };
}

/** The finding kinds of a record as stored in its pii_kinds column: sorted, comma-separated. */
export const piiKindsOf = (pii: readonly PiiFinding[]) => [...new Set(pii.map((f) => f.kind))].sort().join(',');

export function checkLabel(label: string | null | undefined, labels: readonly string[], task: string): void {
  if (label === undefined || label === null) return;
  if (task === 'generation') throw new VaultError('records of a generation dataset have no label');
  if (!labels.includes(label)) throw new VaultError(`label "${label}" is not in the dataset's label set (${labels.join(', ') || 'empty'})`);
}

/**
 * The dataset's record count and id span: pages read by rowid range (`+dataset_id`, which keeps
 * SQLite off the (dataset_id, …) indexes and their sort of the remaining rows) stay inside it,
 * so a small dataset beside a large one is not read through the large one's rows.
 */
export async function datasetIdSpan(q: Queryable, datasetId: number): Promise<{ n: number; first: number | null; last: number | null }> {
  return (await q.get<{ n: number; first: number | null; last: number | null }>('SELECT COUNT(*) AS n, MIN(id) AS first, MAX(id) AS last FROM records WHERE dataset_id = $datasetId', { datasetId }))!;
}

/** Which of these content hashes the dataset already holds, in one query (the unique (dataset_id, content_hash) key). */
export async function heldHashes(q: Queryable, datasetId: number, hashes: readonly string[]): Promise<Set<string>> {
  const rows = await q.all<{ hash: string }>('SELECT content_hash AS hash FROM records WHERE dataset_id = $datasetId AND content_hash IN (SELECT value FROM json_each($hashes))', { datasetId, hashes: JSON.stringify(hashes) });
  return new Set(rows.map((r) => r.hash));
}

/** Inserts one record (`hash`: its text's contentHash); false when the same normalised text is already in the dataset. */
export async function insertRecord(
  q: Queryable,
  datasetId: number,
  record: NewRecord,
  pii: readonly PiiFinding[],
  hash = contentHash(record.text),
): Promise<boolean> {
  const { changes } = await q.run(INSERT, {
    datasetId,
    text: record.text,
    label: record.label ?? null,
    output: record.output ?? null,
    split: record.split,
    subject: record.subject ?? null,
    tags: JSON.stringify([...new Set(record.tags)]),
    pii: JSON.stringify(pii),
    piiKinds: piiKindsOf(pii),
    hash,
    now: new Date().toISOString(),
  });
  return changes === 1;
}

export async function getRecord(q: Queryable, id: number): Promise<RecordDbRow> {
  const row = await q.get<RecordDbRow>(SELECT_ONE, { id });
  if (!row) throw new VaultError(`no record ${id}`);
  return row;
}

export function addHistory(q: Queryable, id: number, action: string, detail: Record<string, unknown>) {
  return q.run(INSERT_HISTORY, { id, at: new Date().toISOString(), action, detail: JSON.stringify(detail) });
}

export async function history(q: Queryable, id: number) {
  const rows = await q.all<{ at: string; action: string; detail_json: string }>(SELECT_HISTORY, { id });
  return rows.map((r) => ({ at: r.at, action: r.action, detail: JSON.parse(r.detail_json) as Record<string, unknown> }));
}

export function updateFields(q: Queryable, id: number, fields: { label: string | null; split: string; tags: string[] }) {
  return q.run(UPDATE_FIELDS, { id, label: fields.label, split: fields.split, tags: JSON.stringify([...new Set(fields.tags)]), now: new Date().toISOString() });
}

/**
 * Replaces a record's text after a redaction; returns the id of another record of the
 * dataset whose normalised text is the same, or null. Redaction can make different records
 * equal (templated e-mails that differed only in the address both become "… [EMAIL] …"),
 * and both must stay: the (dataset, content hash) key is unique (migration 1), so the
 * redacted record then gets a hash of its own (recordContentHash) instead of failing. The
 * text stays duplicate-checked through the other record's hash. (Not a new migration: SQLite
 * cannot drop a UNIQUE constraint without rebuilding the table. Not the old hash: a hash of a
 * short templated text would be a guessable fingerprint of the removed address.) A manual
 * text edit, had the API one, should refuse such a collision instead of calling this.
 */
export async function replaceText(q: Queryable, record: { id: number; dataset_id: number }, text: string, pii: readonly PiiFinding[]): Promise<number | null> {
  const hash = contentHash(text);
  const same = await q.get<{ id: number }>(SAME_TEXT, { datasetId: record.dataset_id, hash, id: record.id });
  await q.run(UPDATE_TEXT, {
    id: record.id,
    text,
    pii: JSON.stringify(pii),
    piiKinds: piiKindsOf(pii),
    hash: same ? recordContentHash(text, record.id) : hash,
    now: new Date().toISOString(),
  });
  return same?.id ?? null;
}

export function setPii(q: Queryable, id: number, pii: readonly PiiFinding[]) {
  return q.run(SET_PII, { id, pii: JSON.stringify(pii), piiKinds: piiKindsOf(pii) });
}
