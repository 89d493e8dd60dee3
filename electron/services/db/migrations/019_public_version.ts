/**
 * Migration 19: a per-dataset version of the public split, moved by SQLite itself on every
 * insert, delete and change (of text, label, output, split or dataset) of a record whose old or
 * new split is public. The domain learner is kept per version (synthesis/domainLearner.ts):
 * a redaction or an edit moves it whatever the clock says (updated_at can repeat within a
 * millisecond or step back), so a learner built from a public text that changed is never reused.
 * The bulk import drops the insert trigger while it loads and moves the version once
 * (vault/import/bulkLoad.ts).
 */
import type { Migration } from '../migrate';

export const publicVersionMigration: Migration = {
  id: 19,
  name: 'public split version',
  sql: `
ALTER TABLE datasets ADD COLUMN public_version INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER records_public_insert AFTER INSERT ON records WHEN new.split = 'public' BEGIN
  UPDATE datasets SET public_version = public_version + 1 WHERE id = new.dataset_id;
END;
CREATE TRIGGER records_public_delete AFTER DELETE ON records WHEN old.split = 'public' BEGIN
  UPDATE datasets SET public_version = public_version + 1 WHERE id = old.dataset_id;
END;
CREATE TRIGGER records_public_update AFTER UPDATE OF text, label, output, split, dataset_id ON records
  WHEN old.split = 'public' OR new.split = 'public' BEGIN
  UPDATE datasets SET public_version = public_version + 1 WHERE id IN (old.dataset_id, new.dataset_id);
END;
`,
};
