/**
 * Bulk loading an import's records, inside the import's one transaction (so a crash, a
 * cancel or a kill -9 still leaves all of it or none of it, schema included):
 * - the per-row full-text trigger is dropped and the import's rows are indexed by one
 *   INSERT … SELECT per FTS_CHUNK_CHARS of text as they go in (SQLite indexes them while the
 *   caller reads the next batches) and one for the rest at the end, with a larger FTS5
 *   in-memory segment ('hashsize'), so the index is written as a few large segments instead
 *   of merging hundreds of small ones (FTS5 writes out its pending terms at the start of every
 *   later statement of the transaction: indexing each 500-row batch made a segment per batch,
 *   and their merges grew faster than the rows); the trigger is then re-created from its own
 *   stored SQL, and 'hashsize' restored;
 * - the connection's page cache is raised while the indexes of a large table are updated
 *   (SQLite's default 2 MB makes every random content-hash index insert a page miss): 16 MiB,
 *   or an eighth of the file up to 64 MiB (a 1M-row file's unique hash index outgrows 16 MiB;
 *   64 MiB took a sixth off SQLite's CPU there).
 * - the per-row trigger moving the dataset's public-split version (migration 19) is dropped
 *   too, re-created from its stored SQL, and the version moved once for the whole import;
 * - so is the per-row trigger counting records by split and label (migration 21): the import's
 *   rows are added to record_counts by one INSERT … SELECT … GROUP BY once they are all in
 *   (a third of the trigger-kept counts' cost to an import, row by row);
 * All are bounded, so memory stays flat however large the file. Full-text 'secure-delete'
 * (migration 5) is untouched: it governs deletes, and a bulk load deletes nothing.
 * Other connections never see the trigger missing: they read the last committed schema, and
 * the import holds the write lock (BEGIN IMMEDIATE) until the trigger is back.
 */
import type { Queryable } from '../../db/database';

/** Page cache of the importing connection, KiB: an eighth of the file, within these bounds. */
const CACHE_KIB = { min: 16_384, max: 65_536 };
/** FTS5 pending-data size while indexing the import, bytes (SQLite's default is 1 MiB). */
const FTS_HASH_BYTES = 8 * 2 ** 20;
const FTS_DEFAULT_HASH_BYTES = 2 ** 20;
/** Text indexed for search per statement, characters: a segment's worth or more. */
const FTS_CHUNK_CHARS = 16_000_000;
const TRIGGER = 'records_fts_insert';
const PUBLIC_TRIGGER = 'records_public_insert';
const COUNTS_TRIGGER = 'record_counts_insert';
/** Adds the import's records (all the ids from $first to $last: it holds the write lock) to the counts. */
const ADD_COUNTS = `INSERT INTO record_counts (dataset_id, split, label, n)
  SELECT dataset_id, split, COALESCE(label, ''), COUNT(*) FROM records WHERE id BETWEEN $first AND $last GROUP BY 1, 2, 3
  ON CONFLICT DO UPDATE SET n = n + excluded.n`;

/** The stored SQL of a trigger, dropped (null if there is none). */
async function dropTrigger(tx: Queryable, name: string): Promise<string | null> {
  const trigger = await tx.get<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = '${name}'`);
  if (trigger) await tx.exec(`DROP TRIGGER ${name}`);
  return trigger?.sql ?? null;
}

export class BulkLoad {
  /** Inserted rows not indexed for search yet: their id range and characters. */
  private pending = { first: Infinity, last: -Infinity, chars: 0 };

  private constructor(
    private readonly tx: Queryable,
    private readonly importId: number,
    private readonly triggerSql: string | null,
    private readonly restore: { cacheSize: number; hashSize: number },
    private readonly publicTriggerSql: string | null,
    private readonly countsTriggerSql: string | null,
  ) {}

  static async start(tx: Queryable, importId: number, fileBytes: number): Promise<BulkLoad> {
    const cacheSize = (await tx.get<{ cache_size: number }>('PRAGMA cache_size'))!.cache_size;
    const hash = await tx.get<{ v: number }>(`SELECT v FROM records_fts_config WHERE k = 'hashsize'`);
    const cacheKib = Math.round(Math.min(CACHE_KIB.max, Math.max(CACHE_KIB.min, fileBytes / 8 / 1024)));
    await tx.exec(`PRAGMA cache_size = -${cacheKib}`);
    const triggerSql = await dropTrigger(tx, TRIGGER);
    if (triggerSql) await tx.run(`INSERT INTO records_fts (records_fts, rank) VALUES ('hashsize', $bytes)`, { bytes: FTS_HASH_BYTES });
    const [publicTriggerSql, countsTriggerSql] = [await dropTrigger(tx, PUBLIC_TRIGGER), await dropTrigger(tx, COUNTS_TRIGGER)];
    return new BulkLoad(tx, importId, triggerSql, { cacheSize, hashSize: hash?.v ?? FTS_DEFAULT_HASH_BYTES }, publicTriggerSql, countsTriggerSql);
  }

  /** Notes the rows one batch inserted (their ids, none if null; `chars` of text), and indexes them for search once enough are waiting. */
  async inserted(ids: { first: number; last: number } | null, chars: number): Promise<void> {
    const { pending } = this;
    if (ids) [pending.first, pending.last] = [Math.min(pending.first, ids.first), Math.max(pending.last, ids.last)];
    pending.chars += chars;
    if (pending.chars >= FTS_CHUNK_CHARS) await this.index();
  }

  /** Indexes the rows waiting (their ids ascend and nothing else writes: the import holds the write lock). */
  private async index(): Promise<void> {
    const { first, last } = this.pending;
    this.pending = { first: Infinity, last: -Infinity, chars: 0 };
    if (!this.triggerSql || first > last) return;
    await this.tx.run(`INSERT INTO records_fts (rowid, text) SELECT id, text FROM records WHERE id BETWEEN $first AND $last AND import_id = $importId`, { first, last, importId: this.importId });
  }

  /** Indexes the rest for search, counts the import's records, puts the triggers, 'hashsize' and the cache back, and moves the public version (`ids`: the import's records, null if none). */
  async finish(ids: { first: number; last: number } | null): Promise<void> {
    await this.index();
    if (this.triggerSql) {
      await this.tx.run(`INSERT INTO records_fts (records_fts, rank) VALUES ('hashsize', $bytes)`, { bytes: this.restore.hashSize });
      await this.tx.exec(this.triggerSql);
    }
    if (this.publicTriggerSql) {
      await this.tx.exec(this.publicTriggerSql);
      // Only an import that added public records moves it (the domain learner is rebuilt on a move);
      // they are read by the import's id range (every id in it is the import's: it holds the write lock).
      if (ids) {
        await this.tx.run(
          `UPDATE datasets SET public_version = public_version + 1 WHERE id = (SELECT dataset_id FROM imports WHERE id = $importId)
            AND EXISTS (SELECT 1 FROM records WHERE id BETWEEN $first AND $last AND split = 'public')`,
          { importId: this.importId, ...ids },
        );
      }
    }
    if (this.countsTriggerSql) {
      if (ids) await this.tx.run(ADD_COUNTS, ids);
      await this.tx.exec(this.countsTriggerSql);
    }
    await this.tx.exec(`PRAGMA cache_size = ${this.restore.cacheSize}`);
  }
}
