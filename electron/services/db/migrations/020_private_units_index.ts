/**
 * Migration 20: records by (dataset, split, subject), so N, the privacy units of the private
 * split (ledger/datasets.ts, privacyUnitCount: distinct subjects plus subject-less records), is
 * counted from this index alone, without reading a row of the records table — it runs on every
 * budgeted ledger summary, plan and release price.
 */
import type { Migration } from '../migrate';

export const privateUnitsIndexMigration: Migration = {
  id: 20,
  name: 'private units index',
  sql: `CREATE INDEX records_by_split_subject ON records (dataset_id, split, subject_id);`,
};
