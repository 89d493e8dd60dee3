/**
 * Migration 13 (issue 15): a dataset setting "public examples from dataset X" — out-of-
 * distribution public data for a dataset with no in-domain public split. Only X's public split
 * is ever read through it; deleting X clears the setting.
 */
import type { Migration } from '../migrate';

export const publicSourceMigration: Migration = {
  id: 13,
  name: 'public examples from another dataset',
  sql: `
ALTER TABLE datasets ADD COLUMN public_source_id INTEGER REFERENCES datasets(id) ON DELETE SET NULL;
`,
};
