/**
 * The app database: one SQLite file (`veil.sqlite`) per data directory, holding the
 * vault and the privacy ledger, migrated on first use and closed with the context.
 */
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { Database } from './database';
import { migrate } from './migrate';
import { migrations } from './migrations';

export const DATABASE_FILE = 'veil.sqlite';

/** Opens and migrates a database file (also used by tests and for extra connections). */
export async function openAppDatabase(file: string): Promise<Database> {
  const db = await Database.open(file);
  try {
    await migrate(db, migrations);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** The context's shared connection. */
export function appDatabase(ctx: ServiceContext): Promise<Database> {
  return ctx.singleton('app-database', () => openAppDatabase(join(ctx.dataDir, DATABASE_FILE)), (db) => db.close());
}
