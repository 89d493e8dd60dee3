/**
 * The ledger's view of the vault's datasets: resolve an id or a name to the dataset the
 * chain belongs to.
 */
import { changeStamp, StampedCache } from '../db/changeStamp';
import { Database, type Queryable } from '../db/database';
import { findDatasetKey, type DatasetRef } from '../vault/datasets';
import { LedgerError } from './errors';
import type { DatasetKey } from './reservations';

export type { DatasetRef };

/** The vault's lookup (id and name alone), refusing with a LedgerError. */
export function resolveDataset(q: Queryable, ref: DatasetRef): Promise<DatasetKey> {
  return findDatasetKey(q, ref, LedgerError);
}

/* Privacy units N of the private split: records, or subjects (a record without a subject id
 * is its own subject, as the sampler counts it). */
const UNITS = `SELECT CASE d.privacy_unit
    WHEN 'subject' THEN (SELECT COUNT(DISTINCT subject_id) FROM records WHERE dataset_id = d.id AND split = 'private' AND subject_id IS NOT NULL)
                      + (SELECT COUNT(*) FROM records WHERE dataset_id = d.id AND split = 'private' AND subject_id IS NULL)
    ELSE (SELECT COUNT(*) FROM records WHERE dataset_id = d.id AND split = 'private') END AS n
  FROM datasets d WHERE d.id = $id`;

/** N is kept per connection and dataset under the database's change stamp (db/changeStamp.ts). */
const counted = new StampedCache<number | null>();

/** N for δ defaults and warnings; null when the private split is empty (nothing to count). */
export async function privacyUnitCount(q: Queryable, datasetId: number): Promise<number | null> {
  if (!(q instanceof Database)) return countUnits(q, datasetId);
  return counted.get(q, await changeStamp(q), String(datasetId), () => countUnits(q, datasetId));
}

async function countUnits(q: Queryable, datasetId: number): Promise<number | null> {
  const row = await q.get<{ n: number }>(UNITS, { id: datasetId });
  return row && row.n > 0 ? row.n : null;
}
