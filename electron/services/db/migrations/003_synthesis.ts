/**
 * Migration 3: synthesis runs. A run keeps its request, status, the released DP prompt
 * document (synthetic text only — post-processing of a DP release, never private records)
 * and its utility check. The ledger entry it was charged to is referenced by id.
 */
import type { Migration } from '../migrate';

export const synthesisMigration: Migration = {
  id: 3,
  name: 'synthesis',
  sql: `
CREATE TABLE synthesis_runs (
  id INTEGER PRIMARY KEY,
  dataset_name TEXT NOT NULL,
  method TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled', 'interrupted')),
  job_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  request_json TEXT NOT NULL,
  epsilon REAL NOT NULL,
  delta REAL NOT NULL,
  shots INTEGER NOT NULL,
  ledger_entry_id INTEGER,
  error TEXT,
  document_json TEXT,
  utility_json TEXT
);
CREATE INDEX synthesis_runs_dataset ON synthesis_runs (dataset_name, id);
`,
};
