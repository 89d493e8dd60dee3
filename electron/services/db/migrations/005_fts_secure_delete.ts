/**
 * Migration 5: the full-text index forgets deleted and replaced text at once (FTS5
 * 'secure-delete', SQLite ≥ 3.42), instead of keeping its tokens until a merge — a redacted
 * e-mail address or a hard-deleted record no longer lingers in the index. With the
 * connection's PRAGMA secure_delete the freed bytes are zeroed too. 'optimize' then merges
 * away what earlier deletes left.
 */
import type { Migration } from '../migrate';

export const ftsSecureDeleteMigration: Migration = {
  id: 5,
  name: 'fts secure delete',
  sql: `
INSERT INTO records_fts (records_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO records_fts (records_fts) VALUES ('optimize');
`,
};
