/**
 * Migration 21: records of a dataset in the record table's sort orders — by id, by (label, id)
 * and by (split, id) — each carrying the columns the table's filters read (split, label, PII
 * kinds, tags; not the text: a search reads the full-text index). A page of the table
 * (vault/recordPaging.ts) then skips to its rows and seeks from a page boundary along one of these
 * indexes alone, without reading a row of the records table or sorting the dataset per page.
 * And the records per (dataset, split, label — '' for none, as the label filter reads it), kept
 * by triggers, so the table's total without a filter, or filtered by split and label, is a sum
 * of a few rows instead of a count of the dataset after every change.
 */
import type { Migration } from '../migrate';

export const recordOrderIndexesMigration: Migration = {
  id: 21,
  name: 'record order indexes and counts',
  sql: `
CREATE INDEX records_in_id_order ON records (dataset_id, id, split, label, pii_kinds, tags_json);
CREATE INDEX records_in_label_order ON records (dataset_id, label, id, split, pii_kinds, tags_json);
CREATE INDEX records_in_split_order ON records (dataset_id, split, id, label, pii_kinds, tags_json);
CREATE TABLE record_counts (
  dataset_id INTEGER NOT NULL,
  split TEXT NOT NULL,
  label TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (dataset_id, split, label)
) WITHOUT ROWID;
INSERT INTO record_counts SELECT dataset_id, split, COALESCE(label, ''), COUNT(*) FROM records GROUP BY 1, 2, 3;
CREATE TRIGGER record_counts_insert AFTER INSERT ON records BEGIN
  INSERT INTO record_counts VALUES (new.dataset_id, new.split, COALESCE(new.label, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER record_counts_delete AFTER DELETE ON records BEGIN
  UPDATE record_counts SET n = n - 1 WHERE dataset_id = old.dataset_id AND split = old.split AND label = COALESCE(old.label, '');
END;
CREATE TRIGGER record_counts_update AFTER UPDATE OF dataset_id, split, label ON records BEGIN
  UPDATE record_counts SET n = n - 1 WHERE dataset_id = old.dataset_id AND split = old.split AND label = COALESCE(old.label, '');
  INSERT INTO record_counts VALUES (new.dataset_id, new.split, COALESCE(new.label, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
`,
};
