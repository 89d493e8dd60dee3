/**
 * On-demand PII rescan of one dataset (`vault.scanPii`): every record is scanned again with
 * the current detectors and first-name list — after an upgrade of the scanner, or for
 * records written before a detector existed. A record whose findings changed gets the new
 * findings and a "pii-rescan" history entry naming the kinds before and after (never text).
 * The job pages through the records by id and writes in one exclusive transaction, so a
 * cancel or crash leaves every record's old findings in place.
 */
import type { PiiFinding } from '../../../core/pii/types';
import type { PiiRescanReport } from '../../shared/api/vault';
import type { Queryable } from '../db/database';
import type { JobContext } from '../jobs/jobManager';
import { stats } from './curation';
import { touchDataset } from './datasets';
import { exclusiveWrite } from './exclusiveWrite';
import { piiKindsOf } from './records';

const PAGE = 1000;
const COUNT = 'SELECT COUNT(*) AS n FROM records WHERE dataset_id = $datasetId';
const PAGE_SQL = 'SELECT id, text, pii_json, pii_kinds FROM records WHERE dataset_id = $datasetId AND id > $after ORDER BY id LIMIT $limit';
// One statement per page: rows are [id, pii_json, pii_kinds, history detail].
const UPDATE_PAGE = `UPDATE records SET pii_json = c.value ->> '$[1]', pii_kinds = c.value ->> '$[2]'
  FROM json_each($changes) c WHERE records.id = c.value ->> '$[0]'`;
const HISTORY_PAGE = `INSERT INTO record_history (record_id, at, action, detail_json)
  SELECT c.value ->> '$[0]', $now, 'pii-rescan', c.value ->> '$[3]' FROM json_each($changes) c`;

const kindList = (kinds: string) => (kinds === '' ? [] : kinds.split(','));

async function rescan(tx: Queryable, datasetId: number, scan: (text: string) => PiiFinding[], job: JobContext): Promise<PiiRescanReport> {
  const started = performance.now();
  const total = (await tx.get<{ n: number }>(COUNT, { datasetId }))!.n;
  let [after, done, changed] = [0, 0, 0];
  job.progress('scanning', 0, total);
  for (;;) {
    job.throwIfCancelled();
    const rows = await tx.all<{ id: number; text: string; pii_json: string; pii_kinds: string }>(PAGE_SQL, { datasetId, after, limit: PAGE });
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
