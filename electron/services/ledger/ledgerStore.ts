/**
 * SQL of the ledger table: read a dataset's chain, its current budget and reservations,
 * and append an entry (next id and seq, previous hash, own hash). Appending must run
 * inside a write transaction (BEGIN IMMEDIATE) so that the head cannot move meanwhile.
 */
import type { Queryable } from '../db/database';
import { GENESIS_HASH, hashEntry, type LedgerEntryRecord, type UnhashedEntry } from './hashChain';

const COLUMNS = `id, dataset_id AS datasetId, seq, type, event_json AS eventJson, epsilon_cap AS epsilonCap,
  delta, spent_epsilon AS spentEpsilon, accountant, parameters_json AS parametersJson, purpose, job_id AS jobId,
  actor, created_at AS createdAt, reservation_id AS reservationId, output_hash AS outputHash,
  prev_hash AS prevHash, entry_hash AS entryHash`;

const INSERT = `INSERT INTO ledger_entries (id, dataset_id, seq, type, event_json, epsilon_cap, delta, spent_epsilon,
  accountant, parameters_json, purpose, job_id, actor, created_at, reservation_id, output_hash, prev_hash, entry_hash)
  VALUES ($id, $datasetId, $seq, $type, $eventJson, $epsilonCap, $delta, $spentEpsilon, $accountant, $parametersJson,
  $purpose, $jobId, $actor, $createdAt, $reservationId, $outputHash, $prevHash, $entryHash)`;

/** The fields a caller chooses; the store fills in id, seq, time and the hashes. */
export type NewEntry = Pick<LedgerEntryRecord, 'datasetId' | 'type' | 'actor'> &
  Partial<Pick<LedgerEntryRecord,
    'eventJson' | 'epsilonCap' | 'delta' | 'spentEpsilon' | 'accountant' | 'parametersJson' | 'purpose' | 'jobId' | 'reservationId' | 'outputHash'>>;

/** A dataset's entries in chain order, or every dataset's (by dataset, then chain order). */
export function readChain(q: Queryable, datasetId?: number): Promise<LedgerEntryRecord[]> {
  return datasetId === undefined
    ? q.all<LedgerEntryRecord>(`SELECT ${COLUMNS} FROM ledger_entries ORDER BY dataset_id, seq`)
    : q.all<LedgerEntryRecord>(`SELECT ${COLUMNS} FROM ledger_entries WHERE dataset_id = $datasetId ORDER BY seq`, { datasetId });
}

export function readEntry(q: Queryable, id: number): Promise<LedgerEntryRecord | undefined> {
  return q.get<LedgerEntryRecord>(`SELECT ${COLUMNS} FROM ledger_entries WHERE id = $id`, { id });
}

/** The budget entry in force (the latest), if any. */
export function latestBudget(q: Queryable, datasetId: number): Promise<LedgerEntryRecord | undefined> {
  return q.get<LedgerEntryRecord>(
    `SELECT ${COLUMNS} FROM ledger_entries WHERE dataset_id = $datasetId AND type = 'budget' ORDER BY seq DESC LIMIT 1`,
    { datasetId },
  );
}

/** Every reservation of the dataset (committed or not: all count as spent), in order. */
export function reservations(q: Queryable, datasetId: number): Promise<LedgerEntryRecord[]> {
  return q.all<LedgerEntryRecord>(
    `SELECT ${COLUMNS} FROM ledger_entries WHERE dataset_id = $datasetId AND type = 'reserve' ORDER BY seq`,
    { datasetId },
  );
}

/** The last entry's seq and hash (seq 0 and the genesis hash for an empty chain). */
async function chainHead(q: Queryable, datasetId: number): Promise<{ seq: number; hash: string }> {
  const head = await q.get<{ seq: number; hash: string }>(
    'SELECT seq, entry_hash AS hash FROM ledger_entries WHERE dataset_id = $datasetId ORDER BY seq DESC LIMIT 1',
    { datasetId },
  );
  return head ?? { seq: 0, hash: GENESIS_HASH };
}

/** Appends one entry to its dataset's chain. Call inside a write transaction. */
export async function appendEntry(tx: Queryable, entry: NewEntry): Promise<LedgerEntryRecord> {
  const head = await chainHead(tx, entry.datasetId);
  const next = await tx.get<{ id: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM ledger_entries');
  const unhashed: UnhashedEntry = {
    id: next!.id,
    datasetId: entry.datasetId,
    seq: head.seq + 1,
    type: entry.type,
    eventJson: entry.eventJson ?? null,
    epsilonCap: entry.epsilonCap ?? null,
    delta: entry.delta ?? null,
    spentEpsilon: entry.spentEpsilon ?? null,
    accountant: entry.accountant ?? null,
    parametersJson: entry.parametersJson ?? '{}',
    purpose: entry.purpose ?? '',
    jobId: entry.jobId ?? null,
    actor: entry.actor,
    createdAt: new Date().toISOString(),
    reservationId: entry.reservationId ?? null,
    outputHash: entry.outputHash ?? null,
    prevHash: head.hash,
  };
  const record: LedgerEntryRecord = { ...unhashed, entryHash: await hashEntry(unhashed) };
  await tx.run(INSERT, { ...record });
  return record;
}
