/**
 * Long vault writes (imports, PII rescans) run as one transaction on a connection of their
 * own, so a cancel, an error, a crash or a killed process leaves all of the work or none of
 * it. Such writes into one database file run one at a time: a second waits its turn instead
 * of failing on SQLite's write lock.
 */
import { Database, type Queryable } from '../db/database';

const queues = new Map<string, Promise<unknown>>();

function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const result = (queues.get(key) ?? Promise.resolve()).then(work);
  const settled = result.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => queues.get(key) === settled && queues.delete(key));
  return result;
}

/**
 * Runs `work` in one transaction on a fresh connection to `file`, after earlier exclusive writes
 * to it. `foreignKeys: false` leaves foreign keys unchecked on that connection, for a writer whose
 * rows' parents are rows it read or wrote itself inside the transaction (an import).
 */
export function exclusiveWrite<T>(file: string, work: (tx: Queryable) => Promise<T>, { foreignKeys = true } = {}): Promise<T> {
  return oneAtATime(file, async () => {
    const db = await Database.open(file);
    try {
      if (!foreignKeys) await db.exec('PRAGMA foreign_keys = OFF');
      return await db.transaction(work);
    } finally {
      await db.close();
    }
  });
}
