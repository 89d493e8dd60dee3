/**
 * On-demand PII rescan of one dataset (`vault.scanPii`): every record is scanned again with
 * the current detectors and first-name list — after an upgrade of the scanner, or for
 * records written before a detector existed. A record whose findings changed gets the new
 * findings and a "pii-rescan" history entry naming the kinds before and after (never text).
 * The job pages through the records by id and writes in one exclusive transaction, so a
 * cancel or crash leaves every record's old findings in place.
 *
 * Each page is read by a rowid range (`id > after`, from the dataset's first id up to its last), with the
 * `+dataset_id` filter kept off the indexes: left to itself SQLite read every page through
 * `records_by_subject (dataset_id, subject_id)`, i.e. all of the dataset's remaining rows,
 * sorted by id in a temporary B-tree to keep 1,000 of them — quadratic (1.6 s at 100,000
 * rows, 80 s at 1,000,000). By rowid each page costs its own rows, and the whole rescan is
 * one pass over the dataset's id span. Writing findings touches neither the text nor the
 * full-text index: its update trigger fires only on UPDATE OF text (migration 1).
 */
import type { PiiFinding } from '../../../core/pii/types';
import type { PiiRescanReport } from '../../shared/api/vault';
import type { Queryable } from '../db/database';
import type { JobContext } from '../jobs/jobManager';
import { stats } from './curation';
import { touchDataset } from './datasets';
import { exclusiveWrite } from './exclusiveWrite';
import { datasetIdSpan, piiKindsOf } from './records';

const PAGE = 1000;
/** One page by rowid range; `+dataset_id` keeps the planner off the (dataset_id, …) indexes (see above). */
export const PAGE_SQL = `SELECT id, text, pii_json, pii_kinds FROM records
  WHERE id > $after AND id <= $last AND +dataset_id = $datasetId ORDER BY id LIMIT $limit`;
// One statement per page: rows are [id, pii_json, pii_kinds, history detail].
const UPDATE_PAGE = `UPDATE records SET pii_json = c.value ->> '$[1]', pii_kinds = c.value ->> '$[2]'
  FROM json_each($changes) c WHERE records.id = c.value ->> '$[0]'`;
const HISTORY_PAGE = `INSERT INTO record_history (record_id, at, action, detail_json)
  SELECT c.value ->> '$[0]', $now, 'pii-rescan', c.value ->> '$[3]' FROM json_each($changes) c`;

const kindList = (kinds: string) => (kinds === '' ? [] : kinds.split(','));

async function rescan(tx: Queryable, datasetId: number, scan: (text: string) => PiiFinding[], job: JobContext): Promise<PiiRescanReport> {
  const started = performance.now();
  const { n: total, first, last } = await datasetIdSpan(tx, datasetId);
  let [after, done, changed] = [(first ?? 1) - 1, 0, 0];
  job.progress('scanning', 0, total);
  for (;;) {
    job.throwIfCancelled();
    const rows = await tx.all<{ id: number; text: string; pii_json: string; pii_kinds: string }>(PAGE_SQL, { datasetId, after, last: last ?? 0, limit: PAGE });
    if (rows.length === 0) break;
    const changes: unknown[][] = [];
    for (const row of rows) {
      const pii = scan(row.text);
      const json = JSON.stringify(pii);
      if (json === row.pii_json) continue;
      const kinds = piiKindsOf(pii);
      changes.push([row.id, json, kinds, JSON.stringify({ before: kindList(row.pii_kinds), after: kindList(kinds), spans: pii.length })]);
    }
    if (changes.length > 0) {
      const params = { changes: JSON.stringify(changes) };
      await tx.run(UPDATE_PAGE, params);
      await tx.run(HISTORY_PAGE, { ...params, now: new Date().toISOString() });
    }
    [after, done, changed] = [rows[rows.length - 1].id, done + rows.length, changed + changes.length];
    job.progress('scanning', done, total, `${changed.toLocaleString('en')} changed`);
  }
  job.throwIfCancelled();
  if (changed > 0) await touchDataset(tx, datasetId);
  const seconds = +((performance.now() - started) / 1000).toFixed(3);
  return { datasetId, records: done, changed, pii: (await stats(tx, datasetId)).pii, seconds };
}

/** The job body: rescans the dataset in one exclusive transaction; the report is the job's result. */
export function runPiiRescan(file: string, datasetId: number, scan: (text: string) => PiiFinding[], job: JobContext): Promise<PiiRescanReport> {
  return exclusiveWrite(file, (tx) => rescan(tx, datasetId, scan, job));
}
