/**
 * Migration 21: records of a dataset in the record table's sort orders — by id, by (label, id)
 * and by (split, id) — each carrying the columns the table's filters read (split, label, PII
 * kinds, tags; not the text: a search reads the full-text index). A page of the table
 * (vault/recordPaging.ts) then skips to its rows and seeks from a page boundary along one of these
 * indexes alone, without reading a row of the records table or sorting the dataset per page.
 */
import type { Migration } from '../migrate';

export const recordOrderIndexesMigration: Migration = {
  id: 21,
  name: 'record order indexes',
  sql: `
CREATE INDEX records_in_id_order ON records (dataset_id, id, split, label, pii_kinds, tags_json);
CREATE INDEX records_in_label_order ON records (dataset_id, label, id, split, pii_kinds, tags_json);
CREATE INDEX records_in_split_order ON records (dataset_id, split, id, label, pii_kinds, tags_json);
`,
};
