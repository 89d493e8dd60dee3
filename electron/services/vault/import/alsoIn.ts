/**
 * Other datasets holding texts an import added (same normalised text): their budgets are
 * separate. Looked up through the unique (dataset, content hash) index — no index on the hash
 * alone has to be kept up to date (migration 15) — from whichever side has fewer lookups: each
 * of the import's rows in each other dataset, or each other dataset's rows in this one. So a
 * small import beside a large dataset does not read the large dataset (it did: 1M lookups for
 * a 10-row import), and a large import beside small datasets does not look up each of its rows.
 */
import type { Queryable } from '../../db/database';

export interface AlsoIn {
  dataset: string;
  records: number;
}

const OTHER_DATASETS = `SELECT COUNT(*) AS n FROM datasets WHERE id != $datasetId`;
/** The other datasets' records, counted through an index on the dataset one dataset at a time, up to `limit`. */
const OTHER_RECORDS = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM records WHERE dataset_id IN (SELECT id FROM datasets WHERE id != $datasetId) LIMIT $limit)`;
/** Each imported row, read by its id range (CROSS JOIN keeps it the outer loop), looked up in each other dataset. */
export const FROM_IMPORT = `SELECT d.name AS dataset, COUNT(*) AS records
  FROM records r CROSS JOIN datasets d
  WHERE r.id BETWEEN $first AND $last AND +r.import_id = $importId AND d.id != $datasetId
    AND EXISTS (SELECT 1 FROM records o WHERE o.dataset_id = d.id AND o.content_hash = r.content_hash)
  GROUP BY d.id ORDER BY d.name`;
/** Each other dataset's rows looked up in this one. */
const FROM_OTHERS = `SELECT d.name AS dataset, COUNT(DISTINCT r.id) AS records
  FROM datasets d JOIN records o ON o.dataset_id = d.id
  JOIN records r ON r.dataset_id = $datasetId AND r.content_hash = o.content_hash
  WHERE d.id != $datasetId AND r.import_id = $importId GROUP BY d.id ORDER BY d.name`;

/** The other datasets holding texts of import `importId` into `datasetId`, whose records took ids `ids` (null: none). */
export async function alsoIn(tx: Queryable, datasetId: number, importId: number, ids: { first: number; last: number } | null): Promise<AlsoIn[]> {
  if (!ids) return [];
  const datasets = (await tx.get<{ n: number }>(OTHER_DATASETS, { datasetId }))!.n;
  const fromImportLookups = (ids.last - ids.first + 1) * datasets;
  // Counting the other side stops once it is larger: a small import beside a large dataset reads little of it.
  const records = datasets === 0 ? 0 : (await tx.get<{ n: number }>(OTHER_RECORDS, { datasetId, limit: fromImportLookups + 1 }))!.n;
  if (records === 0) return [];
  const fromImport = fromImportLookups < records;
  return tx.all<AlsoIn>(fromImport ? FROM_IMPORT : FROM_OTHERS, fromImport ? { datasetId, importId, ...ids } : { datasetId, importId });
}
