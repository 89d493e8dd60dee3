/**
 * Migration 4: saved budget plans. A plan is its request (dataset, target ε, δ, workload
 * parameters): public settings only, never private text. Jobs load a plan by id or name.
 */
import type { Migration } from '../migrate';

export const plansMigration: Migration = {
  id: 4,
  name: 'plans',
  sql: `
CREATE TABLE plans (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  dataset_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  request_json TEXT NOT NULL
);
CREATE INDEX plans_dataset ON plans (dataset_name, id);
`,
};
