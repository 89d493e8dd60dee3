/**
 * Migration 1: the exemplar vault (docs/vault.md). Datasets with their public label set
 * and privacy unit; records with split, label, optional subject, tags, PII findings and a
 * normalised-content hash (unique per dataset: duplicates are refused); a per-record
 * history; imports; FTS5 full-text search kept in sync by triggers.
 */
import type { Migration } from '../migrate';

export const vaultMigration: Migration = {
  id: 1,
  name: 'vault',
  sql: `
CREATE TABLE datasets (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  task TEXT NOT NULL CHECK (task IN ('classification', 'generation')),
  labels_json TEXT NOT NULL DEFAULT '[]',
  privacy_unit TEXT NOT NULL DEFAULT 'record' CHECK (privacy_unit IN ('record', 'subject')),
  subject_cap INTEGER NOT NULL DEFAULT 1 CHECK (subject_cap >= 1),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE imports (
  id INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  format TEXT NOT NULL,
  started_at TEXT NOT NULL,
  accepted INTEGER NOT NULL DEFAULT 0,
  skipped INTEGER NOT NULL DEFAULT 0,
  report_json TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE records (
  id INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  label TEXT,
  output TEXT,
  split TEXT NOT NULL CHECK (split IN ('private', 'public', 'held-out')),
  subject_id TEXT,
  tags_json TEXT NOT NULL DEFAULT '[]',
  pii_json TEXT NOT NULL DEFAULT '[]',
  pii_kinds TEXT NOT NULL DEFAULT '',
  content_hash TEXT NOT NULL,
  import_id INTEGER REFERENCES imports(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (dataset_id, content_hash)
);
CREATE INDEX records_by_split_label ON records (dataset_id, split, label);
CREATE INDEX records_by_subject ON records (dataset_id, subject_id);
CREATE TABLE record_history (
  id INTEGER PRIMARY KEY,
  record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  action TEXT NOT NULL,
  detail_json TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX record_history_by_record ON record_history (record_id, id);
CREATE VIRTUAL TABLE records_fts USING fts5(text, content='records', content_rowid='id');
CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
  INSERT INTO records_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
  INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER records_fts_update AFTER UPDATE OF text ON records BEGIN
  INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO records_fts (rowid, text) VALUES (new.id, new.text);
END;
`,
};
