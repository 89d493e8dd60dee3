/**
 * Values derived from the database (counts), kept per connection under its change stamp and
 * recomputed once the stamp moves. The stamp is read BEFORE the value is computed: PRAGMA
 * data_version moves when another connection or process commits, total_changes() when this
 * connection changes a row (a trigger's or a cascade's change is not counted, but none reaches
 * records without a counted one: the records triggers write other tables, a cascade follows a
 * dataset's deletion). A value kept under a stamp is thus of the state at or after it, and equal
 * to it while the stamp stands; read first in a Database.read, the stamp names the very state
 * the read sees. Not inside a write transaction: it may see its own changes and then roll them
 * back without moving either.
 */
import type { Database, Queryable } from './database';

const STAMP = "SELECT (SELECT data_version FROM pragma_data_version) || '/' || total_changes() AS stamp";

/** The connection's change stamp now (`q`: a Database, or its Database.read). */
export async function changeStamp(q: Queryable): Promise<string> {
  return (await q.get<{ stamp: string }>(STAMP))!.stamp;
}

/** Values by key, per connection, each valid while the stamp it was computed under stands; at most `maxKeys` per connection (oldest dropped). */
export class StampedCache<V> {
  private readonly kept = new WeakMap<Database, Map<string, { stamp: string; value: V }>>();

  constructor(private readonly maxKeys = 1024) {}

  /** The value kept for `key` under `stamp` (read with changeStamp before anything else), else `compute()`'s, then kept. */
  async get(db: Database, stamp: string, key: string, compute: () => Promise<V>): Promise<V> {
    const kept = this.kept.get(db) ?? new Map<string, { stamp: string; value: V }>();
    this.kept.set(db, kept);
    const hit = kept.get(key);
    if (hit?.stamp === stamp) return hit.value;
    const value = await compute();
    kept.delete(key);
    kept.set(key, { stamp, value });
    for (const oldest of kept.keys()) {
      if (kept.size <= this.maxKeys) break;
      kept.delete(oldest);
    }
    return value;
  }
}
