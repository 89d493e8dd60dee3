/**
 * Migration 6: records by content hash across datasets, so an import can tell the analyst
 * which of its records another dataset already holds (their budgets are separate; see
 * docs/ledger.md, "Budgets are per dataset").
 */
import type { Migration } from '../migrate';

export const contentHashIndexMigration: Migration = {
  id: 6,
  name: 'content hash index',
  sql: `CREATE INDEX records_by_content_hash ON records (content_hash);`,
};
