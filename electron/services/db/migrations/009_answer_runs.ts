/**
 * Migration 9: private answering runs. A run keeps its request (the analyst's queries: public
 * input), status, the released answers document with its certificate (DP releases only, never
 * private records), the evaluation scores, and the number of teachers replaced after a
 * backend failure (reported only in aggregate, after the batch).
 */
import type { Migration } from '../migrate';

export const answerRunsMigration: Migration = {
  id: 9,
  name: 'answer_runs',
  sql: `
CREATE TABLE answer_runs (
  id INTEGER PRIMARY KEY,
  dataset_name TEXT NOT NULL,
  aggregation TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled', 'interrupted')),
  job_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  request_json TEXT NOT NULL,
  epsilon REAL NOT NULL,
  delta REAL NOT NULL,
  queries INTEGER NOT NULL,
  ledger_entry_id INTEGER,
  error TEXT,
  failed_teachers INTEGER,
  document_json TEXT,
  evaluation_json TEXT
);
CREATE INDEX answer_runs_dataset ON answer_runs (dataset_name, id);
`,
};
