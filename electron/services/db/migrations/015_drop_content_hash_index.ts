/**
 * Migration 15: drops migration 6's index of records by content hash alone. Its only query,
 * the import's "also in other datasets", now reads the other datasets' hashes through the
 * unique (dataset, content hash) index and looks each up in the importing dataset
 * (runImport.ts); keeping a second random-keyed index over every record's hash made each
 * imported row cost more the larger the vault grew (issue 18: import in linear time).
 */
import type { Migration } from '../migrate';

export const dropContentHashIndexMigration: Migration = {
  id: 15,
  name: 'drop content hash index',
  sql: `DROP INDEX IF EXISTS records_by_content_hash;`,
};
