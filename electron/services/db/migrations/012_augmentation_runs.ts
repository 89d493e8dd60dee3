/**
 * Migration 12: augmentation runs (docs/sga.md, "Augmenting a thin public set"). A run keeps its
 * request, status, ledger entry, the number of examples added to the public split and its
 * certificate (veil.augmentation/v1). The generated records themselves live in `records`
 * (split 'public', tags 'generated' and 'augmentation-<run id>'): no private text is stored here.
 */
import type { Migration } from '../migrate';

export const augmentationRunsMigration: Migration = {
  id: 12,
  name: 'augmentation runs',
  sql: `
CREATE TABLE augmentation_runs (
  id INTEGER PRIMARY KEY,
  dataset_name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled', 'interrupted')),
  job_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  request_json TEXT NOT NULL,
  ledger_entry_id INTEGER,
  added INTEGER NOT NULL DEFAULT 0,
  certificate_json TEXT,
  error TEXT
);
CREATE INDEX augmentation_runs_dataset ON augmentation_runs (dataset_name, id);
`,
};
