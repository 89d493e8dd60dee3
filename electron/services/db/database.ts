/**
 * A small promise wrapper over one `sqlite3` connection: WAL, foreign keys, a busy
 * timeout, named parameters (`$name` in SQL, `{ name }` in JS), and serialised
 * transactions. A connection is one SQLite session, so every top-level operation waits
 * for any running transaction to finish (otherwise it would run inside it). Long writers
 * (imports) should open their own connection: WAL lets readers go on meanwhile.
 */
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import sqlite3 from 'sqlite3';

export type Params = Record<string, unknown>;
/** Values for numbered parameters (`?1`, `?2`, … in SQL), in order. */
export type Positional = readonly unknown[];
export type Row = Record<string, unknown>;

export interface Queryable {
  run(sql: string, params?: Params | Positional): Promise<{ changes: number; lastId: number }>;
  get<T = Row>(sql: string, params?: Params): Promise<T | undefined>;
  all<T = Row>(sql: string, params?: Params): Promise<T[]>;
  /** Streams rows one at a time (nothing is collected); resolves to the row count. */
  each<T = Row>(sql: string, params: Params, onRow: (row: T) => void): Promise<number>;
  exec(sql: string): Promise<void>;
}

const prefixed = (params: Params | Positional = {}): Params | Positional =>
  Array.isArray(params) ? params : Object.fromEntries(Object.entries(params).map(([k, v]) => [`$${k}`, v]));

/** The raw operations, bound to a connection, with no locking. */
function rawQueries(db: sqlite3.Database): Queryable {
  return {
    run: (sql, params) =>
      new Promise((resolve, reject) => {
        db.run(sql, prefixed(params), function (this: sqlite3.RunResult, err: Error | null) {
          if (err) reject(err);
          else resolve({ changes: this.changes, lastId: this.lastID });
        });
      }),
    get: <T>(sql: string, params?: Params) =>
      new Promise<T | undefined>((resolve, reject) => {
        db.get(sql, prefixed(params), (err: Error | null, row: T | undefined) => (err ? reject(err) : resolve(row)));
      }),
    all: <T>(sql: string, params?: Params) =>
      new Promise<T[]>((resolve, reject) => {
        db.all(sql, prefixed(params), (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)));
      }),
    each: <T>(sql: string, params: Params, onRow: (row: T) => void) =>
      new Promise<number>((resolve, reject) => {
        let failure: unknown;
        db.each(
          sql,
          prefixed(params),
          (err: Error | null, row: T) => {
            if (err || failure) return void (failure ??= err);
            try {
              onRow(row);
            } catch (error) {
              failure = error;
            }
          },
          (err: Error | null, count: number) => (err || failure ? reject(err ?? failure) : resolve(count)),
        );
      }),
    exec: (sql) => new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve()))),
  };
}

/** How long a statement waits for another connection's lock (default). */
const BUSY_TIMEOUT_MS = 10_000;

/** Another connection held the write lock past the busy timeout: nothing was written. */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
  constructor() {
    super('the vault is busy with another write (an import or a PII rescan, or another Veil process); nothing was changed: try again when it has finished');
  }
}

const busyToError = (error: unknown): never => {
  throw (error as { code?: string } | null)?.code === 'SQLITE_BUSY' ? new DatabaseBusyError() : error;
};

function prepareFile(file: string): void {
  if (!existsSync(file)) return closeSync(openSync(file, 'wx', 0o600));
  const info = statSync(file);
  if (process.getuid && info.uid !== process.getuid()) throw new Error(`${file} belongs to another user: Veil keeps its data only in files of the user running it`);
  if (info.mode & 0o077) chmodSync(file, 0o600);
}

export class Database implements Queryable {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly raw: Queryable;

  private constructor(
    private readonly db: sqlite3.Database,
    readonly file: string,
    private readonly busyTimeoutMs: number,
  ) {
    this.raw = rawQueries(db);
  }

  /**
   * Opens a database file: a new one is created owner-only (0600) before SQLite writes to it
   * (its WAL and shared-memory files take the same mode); an existing one must belong to this
   * user and is narrowed to 0600 — never private data in a file another user owns or can read.
   */
  static async open(file: string, { busyTimeoutMs = BUSY_TIMEOUT_MS } = {}): Promise<Database> {
    if (file !== ':memory:') prepareFile(file);
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const handle = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(handle)));
    });
    const database = new Database(db, file, busyTimeoutMs);
    await database.raw.exec(`PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${busyTimeoutMs}; PRAGMA secure_delete = ON;`);
    return database;
  }

  /** Runs `work` after everything queued on this connection; a lock held too long elsewhere becomes DatabaseBusyError. */
  private locked<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work).catch(busyToError);
    this.queue = result.catch(() => undefined);
    return result;
  }

  run(sql: string, params?: Params | Positional) {
    return this.locked(() => this.raw.run(sql, params));
  }
  get<T = Row>(sql: string, params?: Params) {
    return this.locked(() => this.raw.get<T>(sql, params));
  }
  all<T = Row>(sql: string, params?: Params) {
    return this.locked(() => this.raw.all<T>(sql, params));
  }
  each<T = Row>(sql: string, params: Params, onRow: (row: T) => void) {
    return this.locked(() => this.raw.each<T>(sql, params, onRow));
  }
  exec(sql: string) {
    return this.locked(() => this.raw.exec(sql));
  }

  /**
   * Runs `work` in one transaction (BEGIN IMMEDIATE takes the write lock up front, so
   * two connections cannot both read-then-write). Commits when `work` resolves, rolls
   * back when it throws. Other operations on this connection wait until it ends.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.inTransaction('BEGIN IMMEDIATE', work);
  }

  /**
   * Runs reads as one unit: in a read transaction (BEGIN: its first statement takes a snapshot,
   * WAL), with nothing else on this connection in between, so every statement of `work` sees
   * the same state — no write of this connection's nor another's commit lands between them.
   * `work` only reads.
   */
  read<T>(work: (q: Queryable) => Promise<T>): Promise<T> {
    return this.inTransaction('BEGIN', work);
  }

  private inTransaction<T>(begin: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.locked(async () => {
      await this.raw.exec(begin);
      try {
        const result = await work(this.raw);
        await this.raw.exec('COMMIT');
        return result;
      } catch (error) {
        await this.raw.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * Moves the write-ahead log into the database file and empties it, without waiting: false
   * when another connection (an import on its own connection, a CLI process) is using the log.
   * Nothing else runs on this connection meanwhile, so the zero busy timeout is this call's alone.
   */
  truncateWal(): Promise<boolean> {
    return this.locked(async () => {
      await this.raw.exec('PRAGMA busy_timeout = 0');
      try {
        const row = await this.raw.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)');
        return row?.busy === 0;
      } finally {
        await this.raw.exec(`PRAGMA busy_timeout = ${this.busyTimeoutMs}`);
      }
    });
  }

  close(): Promise<void> {
    return this.locked(() => new Promise<void>((resolve, reject) => this.db.close((err) => (err ? reject(err) : resolve()))));
  }
}
