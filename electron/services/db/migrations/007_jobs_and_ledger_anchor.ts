/**
 * Migration 7: job records, shared by every Veil process on the data directory (they were
 * a jobs.json file that processes rewrote without a lock). A running job names the process
 * that runs it: its pid and that process's start identity (a reused pid is not the owner),
 * and a heartbeat the owner refreshes. Results and errors hold no private text.
 * Also: when the ledger anchor file (ledger/anchor.ts) began, so that a deleted one is noticed.
 */
import type { Migration } from '../migrate';

export const jobsMigration: Migration = {
  id: 7,
  name: 'jobs_and_ledger_anchor',
  sql: `
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled', 'interrupted')),
  started_at TEXT NOT NULL,
  ended_at TEXT,
  progress_json TEXT,
  result_json TEXT,
  error TEXT,
  owner_pid INTEGER,
  owner_start TEXT,
  heartbeat_at TEXT
);
CREATE INDEX jobs_started ON jobs (started_at);
CREATE INDEX jobs_running ON jobs (status) WHERE status = 'running';
CREATE TABLE ledger_anchor (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  started_at TEXT NOT NULL
);
`,
};
