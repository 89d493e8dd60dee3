/**
 * Writing an import inside its transaction: the `imports` row, then accepted records in
 * batches of one multi-row INSERT … VALUES with numbered parameters (five times faster than a
 * statement per row). Each record is PII-scanned with the vault's scanner and hashed for
 * duplicate detection; the unique (dataset, content hash) index skips duplicates of records
 * already in the dataset or earlier in the file. A batch's count of inserted rows and last id
 * tell which rows went in (no RETURNING: reading every row back cost the importing thread
 * more than the rest of the insert); only when a batch lost rows are their hashes read, to
 * report the duplicates by line. The records go in under a bulk load (bulkLoad.ts): they are
 * indexed for search a few large chunks at a time.
 *
 * The batch INSERT is written so that SQLite needs no statement journal: a multi-row INSERT
 * that might abort halfway (a constraint that aborts, a foreign key checked per statement, a
 * table-valued function such as json_each in its SELECT) must be undoable on its own, so SQLite
 * copied every index page it touched to a temporary file first — four times the database's
 * size written at 100k rows, on the thread every batch waits for. So: plain VALUES; OR IGNORE,
 * which skips a text already in the dataset and would skip a row breaking another constraint
 * (none can: mapping.ts validates text and split, the rest is written here; and a lost row is
 * checked to be a duplicate, see duplicateLines); and the import's connection leaves foreign
 * keys unchecked (runImport.ts: its parents are the dataset and the import row it holds).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { NewRecord } from '../../../shared/api/vault';
import type { ImportReport } from '../../../shared/api/vaultFiles';
import type { Queryable } from '../../db/database';
import { contentHash } from '../normalise';
import { heldHashes, piiKindsOf } from '../records';
import { scanPii } from '../vaultService';
import { BulkLoad } from './bulkLoad';

/** Rows per INSERT (4,000 parameters; larger batches made peak memory grow with the file: importMemory.test.ts). */
export const BATCH_ROWS = 500;
const BATCH_CHARS = 4_000_000;
/**
 * Rows read between turns of the event loop. node-sqlite3 resumes each statement's next step
 * (prepare, then run, then the next batch) on this thread: reading a file chunk's rows in one
 * stretch of promise continuations left SQLite idle until the stretch ended, so the two
 * threads took turns instead of working together (1M rows: SQLite idle half the time).
 */
const ROWS_PER_TURN = 64;
/** Text queued for insertion beyond which reading waits (≈ 8 batches; 8M made peak RSS differ by 30 MB between the files of importMemory.test.ts). */
const QUEUED_CHARS = 2_000_000;

const INSERT_IMPORT = `INSERT INTO imports (dataset_id, source, format, started_at) VALUES ($datasetId, $source, $format, $now)`;
const FINISH_IMPORT = `UPDATE imports SET accepted = $accepted, skipped = $skipped, report_json = $report WHERE id = $id`;
/** Fields a batch carries per row: text, label, output, split, subject, PII findings, PII kinds, content hash. */
const ROW_FIELDS = 8;
const batchSql = new Map<number, string>();
/** The INSERT of `rows` records: ?1 dataset, ?2 import, ?3 time, then ROW_FIELDS parameters per row. */
function insertBatchSql(rows: number): string {
  let sql = batchSql.get(rows);
  if (!sql) {
    const row = (r: number) => {
      const [text, label, output, split, subject, pii, kinds, hash] = Array.from({ length: ROW_FIELDS }, (_, k) => `?${4 + r * ROW_FIELDS + k}`);
      return `(?1, ${text}, ${label}, ${output}, ${split}, ${subject}, '[]', ${pii}, ${kinds}, ${hash}, ?2, ?3, ?3)`;
    };
    sql = `INSERT OR IGNORE INTO records (dataset_id, text, label, output, split, subject_id, tags_json, pii_json, pii_kinds, content_hash, import_id, created_at, updated_at)
      VALUES ${Array.from({ length: rows }, (_, r) => row(r)).join(', ')}`;
    if (rows === BATCH_ROWS) batchSql.set(rows, sql);
  }
  return sql;
}
const INSERTED_HASHES = `SELECT content_hash FROM records WHERE id BETWEEN $first AND $last`;

export async function createImport(tx: Queryable, datasetId: number, source: string, format: string): Promise<number> {
  return (await tx.run(INSERT_IMPORT, { datasetId, source, format, now: new Date().toISOString() })).lastId;
}

export async function finishImport(tx: Queryable, report: ImportReport): Promise<void> {
  const skipped = report.duplicates.count + report.badRows.count;
  await tx.run(FINISH_IMPORT, { id: report.importId, accepted: report.accepted, skipped, report: JSON.stringify(report) });
}

export interface FlushResult {
  accepted: number;
  duplicateLines: number[];
}

/**
 * Queues records and inserts them a batch at a time, in file order (so the first copy of a
 * duplicated text wins). Batches are inserted while the caller reads and scans the next ones
 * (SQLite works on its own thread; the reading gives the event loop a turn every
 * ROWS_PER_TURN rows so SQLite's finished steps are answered at once); up to QUEUED_CHARS of text wait for their turn, so a long
 * statement (a full-text chunk) does not stall the reading, and memory stays bounded.
 */
export class RecordWriter {
  /** The batch being filled: ROW_FIELDS values per row. */
  private values: unknown[] = [];
  private lines: number[] = [];
  private hashes: string[] = [];
  private chars = 0;
  private rowsSinceTurn = 0;
  /** The batches queued or being inserted, oldest first, each with its characters. */
  private readonly queued: { chars: number; done: Promise<void> }[] = [];
  private queuedChars = 0;
  /** The last batch's insert: each waits for the one before. */
  private inserting: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  /** Set when the import stops early: batches still queued are not inserted. */
  private stopping = false;
  private bulk: BulkLoad | null = null;
  /** The ids the import's records took: all from first to last (the import holds the write lock); null while none. */
  insertedIds: { first: number; last: number } | null = null;

  constructor(
    private readonly tx: Queryable,
    private readonly target: { datasetId: number; importId: number; fileBytes: number },
    private readonly onInserted: (result: FlushResult) => void,
  ) {}

  /** Queues a record; queues its batch for insertion once it is full (waiting while too much is queued). */
  async add(line: number, record: NewRecord): Promise<void> {
    const pii = scanPii(record.text);
    const hash = contentHash(record.text);
    this.values.push(record.text, record.label ?? null, record.output ?? null, record.split, record.subject ?? null, JSON.stringify(pii), piiKindsOf(pii), hash);
    this.lines.push(line);
    this.hashes.push(hash);
    this.chars += record.text.length + (record.output?.length ?? 0);
    if (this.lines.length >= BATCH_ROWS || this.chars >= BATCH_CHARS) await this.flush();
    if (++this.rowsSinceTurn === ROWS_PER_TURN) {
      this.rowsSinceTurn = 0;
      await nextTurn();
    }
  }

  /** Inserts everything queued, waits until it is in, then indexes it for search. */
  async finish(): Promise<void> {
    await this.flush();
    await this.inserting;
    await this.bulk?.finish(this.insertedIds);
  }

  /** Drops the batches not started and waits for the one in flight, ignoring its outcome (before the transaction is rolled back). */
  stop(): Promise<void> {
    this.stopping = true;
    return this.inserting.catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure.error;
    if (this.lines.length > 0) {
      const batch = { values: this.values, lines: this.lines, hashes: this.hashes, chars: this.chars };
      [this.values, this.lines, this.hashes, this.chars] = [[], [], [], 0];
      this.inserting = this.inserting.then(() => this.insert(batch));
      this.inserting.catch((error: unknown) => void (this.failure ??= { error }));
      this.queued.push({ chars: batch.chars, done: this.inserting });
      this.queuedChars += batch.chars;
    }
    while (this.queued.length > 0 && this.queuedChars > QUEUED_CHARS) {
      const oldest = this.queued.shift()!;
      this.queuedChars -= oldest.chars;
      await oldest.done;
    }
  }

  private async insert(batch: { values: unknown[]; lines: number[]; hashes: string[]; chars: number }): Promise<void> {
    if (this.stopping) return;
    this.bulk ??= await BulkLoad.start(this.tx, this.target.importId, this.target.fileBytes);
    const { datasetId, importId } = this.target;
    const { changes, lastId } = await this.tx.run(insertBatchSql(batch.lines.length), [datasetId, importId, new Date().toISOString(), ...batch.values]);
    // One statement's rows take consecutive ids (each the largest so far + 1; the import holds the write lock).
    const ids = { first: lastId - changes + 1, last: lastId };
    if (changes > 0) this.insertedIds = { first: this.insertedIds?.first ?? ids.first, last: ids.last };
    const duplicateLines = changes === batch.lines.length ? [] : await this.duplicateLines(batch, ids);
    await this.bulk.inserted(changes === 0 ? null : ids, batch.chars);
    this.onInserted({ accepted: changes, duplicateLines });
  }

  /**
   * The lines of a batch whose text was not inserted: the rows inserted are known by their
   * hashes. Each such text must be in the dataset by now (an earlier record or row of the file):
   * OR IGNORE would also have skipped a row that broke another constraint, and that is an error.
   */
  private async duplicateLines(batch: { lines: number[]; hashes: string[] }, ids: { first: number; last: number }): Promise<number[]> {
    const rows = ids.last < ids.first ? [] : await this.tx.all<{ content_hash: string }>(INSERTED_HASHES, ids);
    const inserted = new Set(rows.map((r) => r.content_hash));
    const lost = batch.hashes.map((hash, i) => ({ hash, line: batch.lines[i] })).filter(({ hash }) => !inserted.delete(hash));
    const hashes = [...new Set(lost.map((row) => row.hash))];
    const held = (await heldHashes(this.tx, this.target.datasetId, hashes)).size;
    if (held !== hashes.length) throw new Error(`the vault refused ${hashes.length - held} row(s) of the file that are not duplicates; nothing was imported`);
    return lost.map((row) => row.line);
  }
}
