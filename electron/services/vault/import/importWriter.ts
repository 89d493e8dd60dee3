/**
 * Writing an import inside its transaction: the `imports` row, then accepted records in
 * batches of one INSERT … SELECT over a JSON array (five times faster than a statement per
 * row; `jsonb_each` hands each row over already parsed). Each record is PII-scanned with the
 * vault's scanner and hashed for duplicate detection; the unique (dataset, content hash) index
 * skips duplicates of records already in the dataset or earlier in the file. A batch's count
 * of inserted rows and last id tell which rows went in (no RETURNING: reading every row back
 * cost the importing thread more than the rest of the insert); only when a batch lost rows
 * are their hashes read, to report the duplicates by line. The records go in under a bulk
 * load (bulkLoad.ts): they are indexed for search a few large chunks at a time.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { NewRecord } from '../../../shared/api/vault';
import type { ImportReport } from '../../../shared/api/vaultFiles';
import type { Queryable } from '../../db/database';
import { contentHash } from '../normalise';
import { piiKindsOf } from '../records';
import { scanPii } from '../vaultService';
import { BulkLoad } from './bulkLoad';

/** Rows per INSERT (larger batches journal fewer index pages per row, but peak memory grew with the file: importMemory.test.ts). */
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
const INSERT_BATCH = `INSERT INTO records (dataset_id, text, label, output, split, subject_id, tags_json, pii_json, pii_kinds, content_hash, import_id, created_at, updated_at)
  SELECT $datasetId, r.value ->> '$[0]', r.value ->> '$[1]', r.value ->> '$[2]', r.value ->> '$[3]', r.value ->> '$[4]', '[]',
    r.value ->> '$[5]', r.value ->> '$[6]', r.value ->> '$[7]', $importId, $now, $now
  FROM jsonb_each($rows) r WHERE true
  ON CONFLICT (dataset_id, content_hash) DO NOTHING`;
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
  private rows: unknown[][] = [];
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

  constructor(
    private readonly tx: Queryable,
    private readonly target: { datasetId: number; importId: number; fileBytes: number },
    private readonly onInserted: (result: FlushResult) => void,
  ) {}

  /** Queues a record; queues its batch for insertion once it is full (waiting while too much is queued). */
  async add(line: number, record: NewRecord): Promise<void> {
    const pii = scanPii(record.text);
    const hash = contentHash(record.text);
    this.rows.push([record.text, record.label ?? null, record.output ?? null, record.split, record.subject ?? null, JSON.stringify(pii), piiKindsOf(pii), hash]);
    this.lines.push(line);
    this.hashes.push(hash);
    this.chars += record.text.length + (record.output?.length ?? 0);
    if (this.rows.length >= BATCH_ROWS || this.chars >= BATCH_CHARS) await this.flush();
    if (++this.rowsSinceTurn === ROWS_PER_TURN) {
      this.rowsSinceTurn = 0;
      await nextTurn();
    }
  }

  /** Inserts everything queued, waits until it is in, then indexes it for search. */
  async finish(): Promise<void> {
    await this.flush();
    await this.inserting;
    await this.bulk?.finish();
  }

  /** Drops the batches not started and waits for the one in flight, ignoring its outcome (before the transaction is rolled back). */
  stop(): Promise<void> {
    this.stopping = true;
    return this.inserting.catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure.error;
    if (this.rows.length > 0) {
      const batch = { rows: JSON.stringify(this.rows), lines: this.lines, hashes: this.hashes, chars: this.chars };
      [this.rows, this.lines, this.hashes, this.chars] = [[], [], [], 0];
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

  private async insert(batch: { rows: string; lines: number[]; hashes: string[]; chars: number }): Promise<void> {
    if (this.stopping) return;
    this.bulk ??= await BulkLoad.start(this.tx, this.target.importId, this.target.fileBytes);
    const { datasetId, importId } = this.target;
    const params = { datasetId, importId, rows: batch.rows, now: new Date().toISOString() };
    const { changes, lastId } = await this.tx.run(INSERT_BATCH, params);
    // One statement's rows take consecutive ids (each the largest so far + 1; the import holds the write lock).
    const ids = { first: lastId - changes + 1, last: lastId };
    const duplicateLines = changes === batch.lines.length ? [] : await this.duplicateLines(batch, ids);
    await this.bulk.inserted(changes === 0 ? null : ids, batch.chars);
    this.onInserted({ accepted: changes, duplicateLines });
  }

  /** The lines of a batch whose text was not inserted: the rows inserted are known by their hashes. */
  private async duplicateLines(batch: { lines: number[]; hashes: string[] }, ids: { first: number; last: number }): Promise<number[]> {
    const rows = ids.last < ids.first ? [] : await this.tx.all<{ content_hash: string }>(INSERTED_HASHES, ids);
    const inserted = new Set(rows.map((r) => r.content_hash));
    return batch.lines.filter((_, i) => !inserted.delete(batch.hashes[i]));
  }
}
