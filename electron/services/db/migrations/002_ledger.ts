/**
 * Migration 2: the privacy ledger (docs/ledger.md). One append-only table of hash-chained
 * entries per dataset: 'budget' (a cap set or changed), 'reserve' (a release charged
 * before it happens) and 'commit' (the release happened; references its reservation).
 * Status is derived, never updated; triggers refuse UPDATE and DELETE so that no code path
 * edits a hashed row (an attacker with file access can drop them: the hash chain is what
 * detects that). Ledger rows never hold private text.
 */
import type { Migration } from '../migrate';

export const ledgerMigration: Migration = {
  id: 2,
  name: 'ledger',
  sql: `
CREATE TABLE ledger_entries (
  id INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id),
  seq INTEGER NOT NULL CHECK (seq >= 1),
  type TEXT NOT NULL CHECK (type IN ('budget', 'reserve', 'commit')),
  event_json TEXT,
  epsilon_cap REAL,
  delta REAL,
  spent_epsilon REAL,
  accountant TEXT,
  parameters_json TEXT NOT NULL,
  purpose TEXT NOT NULL,
  job_id TEXT,
  actor TEXT NOT NULL,
  created_at TEXT NOT NULL,
  reservation_id INTEGER REFERENCES ledger_entries(id),
  output_hash TEXT,
  prev_hash TEXT NOT NULL,
  entry_hash TEXT NOT NULL,
  UNIQUE (dataset_id, seq),
  CHECK ((type = 'budget') = (epsilon_cap IS NOT NULL)),
  CHECK ((type = 'reserve') = (event_json IS NOT NULL)),
  CHECK ((type = 'commit') = (reservation_id IS NOT NULL))
);
CREATE UNIQUE INDEX ledger_one_commit_per_reservation ON ledger_entries (reservation_id) WHERE type = 'commit';
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
`,
};
