/**
 * Migration 10: membership-inference audit runs. A run keeps its request (a brought prompt's
 * text stays on this machine, like the vault), status and results: scores' summaries and
 * ROC curves, never record text. Audits are not ledger entries (docs/audit.md).
 */
import type { Migration } from '../migrate';

export const auditRunsMigration: Migration = {
  id: 10,
  name: 'audit runs',
  sql: `
CREATE TABLE audit_runs (
  id INTEGER PRIMARY KEY,
  dataset_name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled', 'interrupted')),
  job_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  request_json TEXT NOT NULL,
  result_json TEXT,
  error TEXT
);
CREATE INDEX audit_runs_dataset ON audit_runs (dataset_name, id);
`,
};
