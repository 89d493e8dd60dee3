/**
 * Numbered, checksummed, forward-only migrations. Each applied migration is recorded
 * with the SHA-256 of its SQL; opening a database whose applied migration has since
 * changed, or which was migrated by a newer Veil, is refused with a clear error.
 */
import { createHash } from 'node:crypto';
import type { Database } from './database';

export interface Migration {
  /** Position in the sequence: 1, 2, 3, … never reused or reordered. */
  id: number;
  name: string;
  sql: string;
}

export class MigrationError extends Error {}

const checksum = (sql: string) => createHash('sha256').update(sql).digest('hex');

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`;
const SELECT_APPLIED = 'SELECT id, name, checksum FROM schema_migrations ORDER BY id';
const INSERT_APPLIED = 'INSERT INTO schema_migrations (id, name, checksum, applied_at) VALUES ($id, $name, $checksum, $appliedAt)';

function checkSequence(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (i > 0 && m.id <= migrations[i - 1].id) throw new MigrationError(`Migration ids must increase: ${m.id} after ${migrations[i - 1].id}`);
  });
}

/** Applies the pending migrations, each in its own transaction. Returns the ids applied. */
export async function migrate(db: Database, migrations: readonly Migration[]): Promise<number[]> {
  checkSequence(migrations);
  await db.exec(CREATE_TABLE);
  const applied = await db.all<{ id: number; name: string; checksum: string }>(SELECT_APPLIED);
  const known = new Map(migrations.map((m) => [m.id, m]));
  for (const row of applied) {
    const migration = known.get(row.id);
    if (!migration) {
      throw new MigrationError(
        `${db.file} was migrated by a newer Veil (migration ${row.id} "${row.name}" is unknown to this version); refusing to open it.`,
      );
    }
    if (checksum(migration.sql) !== row.checksum) {
      throw new MigrationError(
        `Migration ${row.id} "${row.name}" has changed since it was applied to ${db.file}; refusing to open. ` +
          'Migrations are forward-only: add a new migration instead of editing an applied one.',
      );
    }
  }
  const done = new Set(applied.map((r) => r.id));
  const pending = migrations.filter((m) => !done.has(m.id));
  for (const m of pending) {
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.run(INSERT_APPLIED, { id: m.id, name: m.name, checksum: checksum(m.sql), appliedAt: new Date().toISOString() });
    });
  }
  return pending.map((m) => m.id);
}
