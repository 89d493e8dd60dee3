/**
 * The ledger's view of the vault's datasets: resolve an id or a name to the dataset the
 * chain belongs to.
 */
import { Database, type Queryable } from '../db/database';
import { LedgerError } from './errors';
import type { DatasetKey } from './reservations';

export type DatasetRef = number | string;

export async function resolveDataset(q: Queryable, ref: DatasetRef): Promise<DatasetKey> {
  const row = await q.get<DatasetKey>(
    typeof ref === 'number' ? 'SELECT id, name FROM datasets WHERE id = $ref' : 'SELECT id, name FROM datasets WHERE name = $ref',
    { ref },
  );
  if (!row) throw new LedgerError(typeof ref === 'number' ? `no dataset with id ${ref}` : `no dataset named "${ref}"`);
  return row;
}

/* Privacy units N of the private split: records, or subjects (a record without a subject id
 * is its own subject, as the sampler counts it). */
const UNITS = `SELECT CASE d.privacy_unit
    WHEN 'subject' THEN (SELECT COUNT(DISTINCT subject_id) FROM records WHERE dataset_id = d.id AND split = 'private' AND subject_id IS NOT NULL)
                      + (SELECT COUNT(*) FROM records WHERE dataset_id = d.id AND split = 'private' AND subject_id IS NULL)
    ELSE (SELECT COUNT(*) FROM records WHERE dataset_id = d.id AND split = 'private') END AS n
  FROM datasets d WHERE d.id = $id`;

/**
 * N is kept per connection and dataset under the database's change stamp, read BEFORE the count:
 * PRAGMA data_version moves when another connection or process commits, total_changes() when
 * this connection changes a row (a trigger's or a cascade's change is not counted, but none
 * reaches records without a counted one: the records triggers write other tables, a cascade
 * follows a dataset's deletion). An N stored under a stamp is thus of the state at or after it,
 * and equal to it while the stamp stands. Only on a Database outside a transaction: a transaction may count its own
 * changes and then roll them back without moving either.
 */
const STAMP = "SELECT (SELECT data_version FROM pragma_data_version) || '/' || total_changes() AS stamp";
const counted = new WeakMap<Database, Map<number, { stamp: string; n: number | null }>>();

/** N for δ defaults and warnings; null when the private split is empty (nothing to count). */
export async function privacyUnitCount(q: Queryable, datasetId: number): Promise<number | null> {
  if (!(q instanceof Database)) return countUnits(q, datasetId);
  const stamp = (await q.get<{ stamp: string }>(STAMP))!.stamp;
  const kept = counted.get(q) ?? new Map<number, { stamp: string; n: number | null }>();
  counted.set(q, kept);
  const hit = kept.get(datasetId);
  if (hit?.stamp === stamp) return hit.n;
  const n = await countUnits(q, datasetId);
  kept.set(datasetId, { stamp, n });
  return n;
}

async function countUnits(q: Queryable, datasetId: number): Promise<number | null> {
  const row = await q.get<{ n: number }>(UNITS, { id: datasetId });
  return row && row.n > 0 ? row.n : null;
}
