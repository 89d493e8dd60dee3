/**
 * The vault service: datasets and records in the app database, curation, the sample
 * datasets, PII rescans, and the private pools the mechanisms sample from (indexed once per dataset
 * version; any change to a dataset drops its indexes). Pushes `vault.changed`.
 */
import { redact, scanPii as scanText } from '../../../core/pii/scan';
import type { PiiFinding, PiiKind } from '../../../core/pii/types';
import type { DatasetDto, NewRecord, PiiRescanReport, RecordRow } from '../../shared/api/vault';
import type { ServiceContext } from '../context';
import { firstNames } from '../pii/firstNames';
import type { Database, Queryable } from '../db/database';
import type { JobContext } from '../jobs/jobManager';
import { bulk, compact, stats, type BulkTarget } from './curation';
import { createDataset, findDataset, findDatasetKey, listDatasets, touchDataset, updateDataset, VaultError, type DatasetFields, type DatasetRef } from './datasets';
import { addHistory, checkLabel, getRecord, heldHashes, history, insertRecord, replaceText, toRow, updateFields } from './records';
import { pageRecords, type RecordPage } from './recordPaging';
import { contentHash } from './normalise';
import { runPiiRescan } from './piiRescan';
import { SAMPLE_DATASETS, type SampleKind } from './sampleDataset';
import { loadUnits, vaultPool, type VaultPool } from './sampler';

type Host = Pick<ServiceContext, 'emit'>;
type BulkAction = Parameters<typeof bulk>[3];

const LEDGER_ENTRIES = 'SELECT COUNT(*) AS n FROM ledger_entries WHERE dataset_id = $id';
const DELETE_RECORDS = 'DELETE FROM records WHERE dataset_id = $id';
const DELETE_DATASET = 'DELETE FROM datasets WHERE id = $id';

export const scanPii = (text: string) => scanText(text, { firstNames: firstNames() });

type Span = Pick<PiiFinding, 'start' | 'end'>;

/** The record's findings at exactly these spans, each once; a span that is not one (a stale view) is refused. */
function findingsAt(row: RecordRow, spans: readonly Span[]): PiiFinding[] {
  const chosen = new Set<PiiFinding>();
  for (const span of spans) {
    const finding = row.pii.find((f) => f.start === span.start && f.end === span.end);
    if (!finding) throw new VaultError(`characters ${span.start}–${span.end} of record ${row.id} are not a PII finding (the record may have changed: reload it)`);
    chosen.add(finding);
  }
  return [...chosen];
}

const DATA_VERSION = 'PRAGMA data_version';

/** Inserts records (duplicates skipped) after checking every label; returns how many were added. `hashes`: their texts' contentHash. */
async function insertAll(tx: Queryable, dataset: { id: number; labels: readonly string[]; task: string }, records: readonly NewRecord[], hashes?: readonly string[]): Promise<number> {
  for (const r of records) checkLabel(r.label, dataset.labels, dataset.task);
  let added = 0;
  for (const [i, r] of records.entries()) if (await insertRecord(tx, dataset.id, r, scanPii(r.text), hashes?.[i])) added++;
  await touchDataset(tx, dataset.id);
  return added;
}

const WAL_PURGE_RETRY_MS = 2000;
const WAL_PURGE_ATTEMPTS = 150;

export class VaultService {
  private readonly pools = new Map<string, { version: string; pool: VaultPool }>();
  private readonly versions = new Map<number, number>();

  constructor(readonly db: Database, private readonly host: Host) {}

  /** Drops cached pools of the dataset and tells subscribers (also called after imports on another connection). */
  changed(datasetId: number, what: string): void {
    this.versions.set(datasetId, (this.versions.get(datasetId) ?? 0) + 1);
    this.host.emit('vault.changed', { datasetId, what });
  }

  dataset(ref: DatasetRef): Promise<DatasetDto> {
    return findDataset(this.db, ref);
  }

  /** The dataset's id, for callers that need no more of it. */
  datasetId(ref: DatasetRef): Promise<number> {
    return findDatasetKey(this.db, ref).then((key) => key.id);
  }

  datasets(): Promise<DatasetDto[]> {
    return listDatasets(this.db);
  }

  async create(fields: DatasetFields): Promise<DatasetDto> {
    const id = await this.db.transaction((tx) => createDataset(tx, fields));
    this.changed(id, 'created');
    return this.dataset(id);
  }

  async update(ref: DatasetRef, change: Partial<Omit<DatasetFields, 'task'>>): Promise<DatasetDto> {
    const id = await this.datasetId(ref);
    // Read in the transaction: the checks (labels in use, charges against the unit) see what is written over.
    await this.db.transaction(async (tx) => updateDataset(tx, await findDataset(tx, id), change));
    this.changed(id, 'updated');
    return this.dataset(id);
  }

  /** Hard delete. A dataset with ledger entries keeps its (empty) row so the ledger stays verifiable. */
  async remove(ref: DatasetRef, options: { compact: boolean }): Promise<{ deletedRecords: number; datasetRemoved: boolean; compacted: boolean }> {
    const id = await this.datasetId(ref);
    const result = await this.db.transaction(async (tx) => {
      const deletedRecords = (await tx.run(DELETE_RECORDS, { id })).changes;
      const charged = (await tx.get<{ n: number }>(LEDGER_ENTRIES, { id }))!.n > 0;
      if (!charged) await tx.run(DELETE_DATASET, { id });
      return { deletedRecords, datasetRemoved: !charged };
    });
    this.changed(id, 'deleted');
    if (options.compact) await compact(this.db);
    return { ...result, compacted: options.compact };
  }

  async addRecords(ref: DatasetRef, records: readonly NewRecord[]): Promise<{ added: number; duplicates: number }> {
    const dataset = await this.dataset(ref);
    const added = await this.db.transaction((tx) => insertAll(tx, dataset, records));
    this.changed(dataset.id, 'records added');
    return { added, duplicates: records.length - added };
  }

  /**
   * Adds every record or none, inside a write transaction the caller holds (`tx`): the indices of
   * the records whose texts the dataset already holds (then nothing is added), else [] with all
   * of them added; records that repeat one another's normalised text are refused before anything
   * is written. The caller calls `changed` once its transaction has committed.
   */
  async addAllRecordsIn(tx: Queryable, dataset: DatasetDto, records: readonly NewRecord[]): Promise<number[]> {
    const hashes = records.map((r) => contentHash(r.text));
    if (new Set(hashes).size < hashes.length) throw new VaultError(`${records.length} texts to add hold the same text twice: nothing was added`);
    const holds = await heldHashes(tx, dataset.id, hashes);
    const held = hashes.flatMap((hash, i) => (holds.has(hash) ? [i] : []));
    if (held.length > 0) return held;
    await insertAll(tx, dataset, records, hashes);
    return [];
  }

  async records(ref: DatasetRef, page: RecordPage) {
    return pageRecords(this.db, await this.datasetId(ref), page);
  }

  async record(id: number) {
    return { ...toRow(await getRecord(this.db, id)), history: await history(this.db, id) };
  }

  async updateRecord(id: number, change: { label?: string | null; split?: RecordRow['split']; tags?: string[] }): Promise<RecordRow> {
    const before = toRow(await getRecord(this.db, id));
    const row = await getRecord(this.db, id);
    const dataset = await this.dataset(row.dataset_id);
    if (change.label !== undefined) checkLabel(change.label, dataset.labels, dataset.task);
    const next = { label: change.label === undefined ? before.label : change.label, split: change.split ?? before.split, tags: change.tags ?? before.tags };
    await this.db.transaction(async (tx) => {
      await updateFields(tx, id, next);
      await addHistory(tx, id, 'edit', { from: { label: before.label, split: before.split, tags: before.tags }, to: next });
    });
    this.changed(dataset.id, 'record edited');
    return toRow(await getRecord(this.db, id));
  }

  async bulk(ref: DatasetRef, target: BulkTarget, action: BulkAction): Promise<number> {
    const dataset = await this.dataset(ref);
    if (action.kind === 'label') checkLabel(action.label, dataset.labels, dataset.task);
    const affected = await this.db.transaction((tx) => bulk(tx, dataset.id, target, action));
    this.changed(dataset.id, `bulk ${action.kind}`);
    return affected;
  }

  /** Replaces PII spans with placeholders; the history records which kinds, never the text. */
  async redact(id: number, kinds?: readonly PiiKind[], spans?: readonly Span[]): Promise<RecordRow> {
    // Read and write in one transaction, so an edit in between cannot be overwritten.
    await this.db.transaction(async (tx) => {
      const record = await getRecord(tx, id);
      const row = toRow(record);
      const { text, redacted } = redact(row.text, spans ? findingsAt(row, spans) : row.pii, kinds);
      if (redacted.length === 0) throw new VaultError('nothing to redact in this record');
      const sameTextAs = await replaceText(tx, record, text, scanPii(text));
      const detail = { kinds: [...new Set(redacted.map((f) => f.kind))], spans: redacted.length };
      // A record of the dataset with the same text now is kept, not refused (see replaceText): the history names it.
      await addHistory(tx, id, 'redact', sameTextAs === null ? detail : { ...detail, sameTextAs });
    });
    // The old text's pages are zeroed (secure_delete, FTS5 secure-delete), but copies of them
    // stay in the write-ahead log until a checkpoint: move it into the database and empty it.
    await this.purgeWal();
    this.changed((await getRecord(this.db, id)).dataset_id, 'record redacted');
    return toRow(await getRecord(this.db, id));
  }

  /**
   * Empties the write-ahead log now, or — while another connection uses it — retries every
   * few seconds for a while; SQLite empties it at the latest when the last connection closes.
   */
  private async purgeWal(attempt = 0): Promise<void> {
    const done = await this.db.truncateWal().catch(() => true); // a closed database has no log left
    if (!done && attempt < WAL_PURGE_ATTEMPTS) setTimeout(() => void this.purgeWal(attempt + 1), WAL_PURGE_RETRY_MS).unref();
  }

  async stats(ref: DatasetRef) {
    return stats(this.db, await this.datasetId(ref));
  }

  compact() {
    return compact(this.db);
  }

  /** Rescans every record of the dataset for PII (a job body; see piiRescan.ts). */
  async rescanPii(ref: DatasetRef, job: JobContext): Promise<PiiRescanReport> {
    const id = await this.datasetId(ref);
    const report = await runPiiRescan(this.db.file, id, scanPii, job);
    this.changed(id, 'pii rescanned');
    return report;
  }

  /** Creates one of the sample datasets (see sampleDataset.ts), named `name` or the sample's default name. */
  async createSample(kind: SampleKind, name?: string): Promise<DatasetDto> {
    const sample = SAMPLE_DATASETS[kind];
    const records = sample.records();
    // One transaction: a crash leaves the whole sample or nothing (not an empty dataset that blocks the name).
    const id = await this.db.transaction(async (tx) => {
      const created = await createDataset(tx, { name: name ?? sample.name, ...sample.fields });
      await insertAll(tx, { id: created, ...sample.fields }, records);
      return created;
    });
    this.changed(id, 'created');
    return this.dataset(id);
  }

  /**
   * The private pool of one label (or the whole private split), indexed once per dataset
   * version. SQLite's data_version changes when another connection (another Veil process:
   * the CLI beside the app) commits, which drops the index too: the pool never misses
   * records added there or keeps ones deleted there.
   */
  async pool(dataset: DatasetDto, label: string | undefined): Promise<VaultPool> {
    const key = `${dataset.id}\u0000${label ?? ''}`;
    const foreign = (await this.db.get<{ data_version: number }>(DATA_VERSION))!.data_version;
    const version = `${this.versions.get(dataset.id) ?? 0}/${foreign}`;
    const cached = this.pools.get(key);
    if (cached?.version === version) return cached.pool;
    const units = await loadUnits(this.db, { datasetId: dataset.id, label, privacyUnit: dataset.privacyUnit, subjectCap: dataset.subjectCap });
    const pool = vaultPool(this.db, units);
    this.pools.set(key, { version, pool });
    return pool;
  }
}
