/**
 * The two-step spending protocol (ARCHITECTURE §4). `reserve` runs in one BEGIN IMMEDIATE
 * transaction: read the budget in force and every reservation so far (committed or not:
 * an uncommitted one may have released its output, so it is never refunded), compose them
 * with the new event, and append the reservation only if the composed ε upper bound at
 * the dataset's δ stays within the cap. Holding the write lock from the first read to the
 * append is what makes concurrent reservations, from any connection or process, unable to
 * overspend. `commit` appends an entry completing a reservation.
 */
import { privacyEventSchema, type PrivacyEvent } from '../../../core/accounting/events';
import { canonicalJson } from '../../../core/export/canonicalJson';
import type { Database, Queryable } from '../db/database';
import { describeEvent } from '../../../core/accounting/describeEvent';
import { BudgetExceededError, DeltaRaiseError, LedgerError, LedgerTamperedError, NoBudgetError, NoFiniteEpsilonError, RelationMismatchError } from './errors';
import type { LedgerEntryRecord } from './hashChain';
import { accountSpend, relationsOf } from './ledgerAccounting';
import { appendEntry, latestBudget, readChain, readEntry, reservations } from './ledgerStore';
import { chainProblems, guardProblems, unitMismatches } from './chainIntegrity';
import { anchorEntry, checkAnchor } from './anchor';

export interface DatasetKey {
  id: number;
  name: string;
}

export interface ReserveMeta {
  /** Why: shown in the ledger and the report. Never private text. */
  purpose: string;
  /** Mechanism parameters (σ, q, shots, …). Never private text. */
  parameters?: Record<string, unknown>;
  /** The job that will release the output; its end without a commit flags the reservation. */
  jobId?: string;
  actor: string;
  /** The privacy unit the event was priced for: refused, writing nothing, if the dataset's unit is another now. */
  privacyUnit?: 'record' | 'subject';
}

/** The stored event of a reservation entry. */
export function storedEvent(entry: Pick<LedgerEntryRecord, 'eventJson'>): PrivacyEvent {
  return privacyEventSchema.parse(JSON.parse(entry.eventJson ?? 'null'));
}

/** The budget in force: ε cap and δ. Throws NoBudgetError when none was set. */
async function budgetInForce(q: Queryable, dataset: DatasetKey): Promise<{ cap: number; delta: number }> {
  const budget = await latestBudget(q, dataset.id);
  if (!budget) throw new NoBudgetError(dataset.name);
  return { cap: budget.epsilonCap!, delta: budget.delta! };
}

/** ε upper bound of the reservations so far; the last one records it when δ is unchanged. */
function spentUpper(previous: readonly LedgerEntryRecord[], delta: number): number {
  const last = previous.at(-1);
  if (!last) return 0;
  if (last.delta === delta && last.spentEpsilon !== null) return last.spentEpsilon;
  return accountSpend(previous.map(storedEvent), delta).epsilon.upper;
}

/**
 * Per connection and dataset: the chain prefix this connection last verified and extended,
 * and SQLite's data_version then (a per-connection counter: another connection's start says
 * nothing). While no other connection has committed (same version) and
 * that entry is still in place, a reservation re-hashes only the entries after it: checking
 * the whole chain each time made recording N releases one by one quadratic (31 µs per entry).
 */
const verifiedPrefix = new WeakMap<Database, Map<number, { version: number; seq: number; hash: string }>>();

export async function reserve(db: Database, dataset: DatasetKey, event: PrivacyEvent, meta: ReserveMeta): Promise<LedgerEntryRecord> {
  const parsed = privacyEventSchema.parse(event);
  return anchorEntry(db, await db.transaction((tx) => reserveIn(db, tx, dataset, parsed, meta)));
}

/** `reserve` inside a write transaction the caller holds (several entries that must be written together). */
async function reserveIn(db: Database, tx: Queryable, dataset: DatasetKey, parsed: PrivacyEvent, meta: ReserveMeta): Promise<LedgerEntryRecord> {
  const unit = await privacyUnitOf(tx, dataset);
  const chain = await readChain(tx, dataset.id);
  const version = (await tx.get<{ data_version: number }>('PRAGMA data_version'))!.data_version;
  const verified = verifiedPrefix.get(db) ?? verifiedPrefix.set(db, new Map()).get(db)!;
  const known = verified.get(dataset.id);
  const trusted = known?.version === version && chain[known.seq - 1]?.entryHash === known.hash ? known.seq : 0;
  const tampered = [
    ...(await chainProblems(chain, trusted)), ...unitMismatches(chain, unit), ...(await guardProblems(tx)),
    ...(await checkAnchor(db, tx, new Map([[dataset.id, chain]]))),
  ];
  if (tampered.length > 0) throw new LedgerTamperedError(dataset.name, tampered[0]);
  if (meta.privacyUnit && meta.privacyUnit !== unit) {
    throw new LedgerError(`the privacy unit of "${dataset.name}" changed to ${unit} after this release was priced per ${meta.privacyUnit}: price it again`);
  }
  const { cap, delta } = await budgetInForce(tx, dataset);
  const previous = await reservations(tx, dataset.id);
  const events = [...previous.map(storedEvent), parsed];
  const relations = relationsOf(events);
  if (relations.length > 1) throw new RelationMismatchError(relations, dataset.name);
  const total = accountSpend(events, delta);
  if (!(total.epsilon.upper <= cap)) {
    const requested = accountSpend([parsed], delta).epsilon.upper;
    if (requested === Infinity) throw new NoFiniteEpsilonError(dataset.name, delta, describeEvent(parsed));
    throw new BudgetExceededError({
      dataset: dataset.name,
      spent: spentUpper(previous, delta),
      requested,
      total: total.epsilon.upper,
      cap,
      delta,
    });
  }
  const entry = await appendEntry(tx, {
    datasetId: dataset.id,
    type: 'reserve',
    eventJson: canonicalJson(parsed),
    delta,
    spentEpsilon: total.epsilon.upper,
    accountant: total.accountant,
    // The unit is hashed with the entry: verify compares it with the dataset's unit.
    parametersJson: canonicalJson({ ...meta.parameters, privacyUnit: unit }),
    purpose: meta.purpose,
    jobId: meta.jobId ?? null,
    actor: meta.actor,
  });
  verified.set(dataset.id, { version, seq: entry.seq, hash: entry.entryHash });
  return entry;
}

async function privacyUnitOf(tx: Queryable, dataset: DatasetKey): Promise<string | undefined> {
  return (await tx.get<{ unit: string }>('SELECT privacy_unit AS unit FROM datasets WHERE id = $id', { id: dataset.id }))?.unit;
}

export interface CommitMeta {
  actor: string;
  /** SHA-256 of the released content (e.g. a DP prompt's contentHash). */
  outputHash?: string;
}

/**
 * Commits a reservation together with the writes that release the output (`release`, given the commit entry):
 * one transaction, so the commit is written if and only if they are. When `release` throws,
 * nothing is written and the reservation stays as it was (charged, not committed).
 */
export async function commitWith<T>(db: Database, reservationId: number, meta: CommitMeta, release: (tx: Queryable, entry: LedgerEntryRecord) => Promise<T>): Promise<{ entry: LedgerEntryRecord; result: T }> {
  const done = await db.transaction(async (tx) => {
    const entry = await commitIn(tx, reservationId, meta);
    return { entry, result: await release(tx, entry) };
  });
  anchorEntry(db, done.entry);
  return done;
}

async function commitIn(tx: Queryable, reservationId: number, meta: CommitMeta): Promise<LedgerEntryRecord> {
  const reservation = await readEntry(tx, reservationId);
  if (reservation?.type !== 'reserve') throw new LedgerError(`no reservation with id ${reservationId}`);
  const done = await tx.get<{ id: number }>(
    "SELECT id FROM ledger_entries WHERE type = 'commit' AND reservation_id = $reservationId",
    { reservationId },
  );
  if (done) throw new LedgerError(`reservation ${reservationId} is already committed (entry ${done.id})`);
  return appendEntry(tx, {
    datasetId: reservation.datasetId,
    type: 'commit',
    reservationId,
    purpose: reservation.purpose,
    jobId: reservation.jobId,
    actor: meta.actor,
    outputHash: meta.outputHash ?? null,
  });
}

/** A release the δ was computed from (a noisy count of the privacy units): charged in the budget's transaction. */
export interface BudgetCharge {
  event: PrivacyEvent;
  purpose: string;
  parameters: Record<string, unknown>;
}

export interface BudgetChange {
  epsilon: number;
  /** δ given by the caller. Omitted: the δ in force if the dataset has charges, else `defaultDelta`'s. */
  delta?: number;
  /**
   * The default δ, called only when δ is omitted and the transaction sees no charge on the
   * dataset: it may draw a count, returned as `charge` and charged with the budget entry.
   */
  defaultDelta?: (tx: Queryable) => Promise<{ delta: number; charge?: BudgetCharge }>;
  actor: string;
  purpose?: string;
}

/**
 * Sets or changes the dataset's budget: itself a ledger entry. Once the dataset has charges,
 * δ may only go down: the ledger prices every past release at the δ in force, so a larger δ
 * would lower the ε already spent and give budget back (ARCHITECTURE §4). With charges, an
 * omitted δ keeps the δ in force and no count is drawn: a drawn count's charge is checked at
 * the δ it gives, so a refusal there would depend on an uncharged draw. Whether there are
 * charges is decided inside the transaction, so a reservation landing just before it is seen.
 */
export async function setBudget(db: Database, dataset: DatasetKey, change: BudgetChange): Promise<LedgerEntryRecord> {
  if (!(change.epsilon > 0 && Number.isFinite(change.epsilon))) throw new LedgerError(`ε cap must be finite and > 0, got ${change.epsilon}`);
  if (change.delta !== undefined) checkDelta(change.delta);
  const { budget, last } = await db.transaction(async (tx) => {
    const current = await latestBudget(tx, dataset.id);
    const charged = await hasCharges(tx, dataset.id);
    let delta: number;
    let charge: BudgetCharge | undefined;
    if (change.delta !== undefined) {
      if (current && charged && change.delta > current.delta!) throw new DeltaRaiseError(dataset.name, current.delta!, change.delta);
      delta = change.delta;
    } else if (current && charged) {
      delta = current.delta!;
    } else {
      if (!change.defaultDelta) throw new LedgerError(`pass δ: no default δ for "${dataset.name}"`);
      ({ delta, charge } = await change.defaultDelta(tx));
      checkDelta(delta);
    }
    const budget = await appendEntry(tx, {
      datasetId: dataset.id,
      type: 'budget',
      epsilonCap: change.epsilon,
      delta,
      purpose: change.purpose ?? 'budget set',
      actor: change.actor,
    });
    if (!charge) return { budget, last: budget };
    const reservation = await reserveIn(db, tx, dataset, privacyEventSchema.parse(charge.event), { ...charge, actor: change.actor });
    return { budget, last: await commitIn(tx, reservation.id, { actor: change.actor }) };
  });
  anchorEntry(db, last); // the newest entry written is the dataset's head
  return budget;
}

function checkDelta(delta: number): void {
  if (!(delta > 0 && delta < 1)) throw new LedgerError(`δ must be in (0, 1), got ${delta}`);
}

async function hasCharges(tx: Queryable, datasetId: number): Promise<boolean> {
  return Boolean(await tx.get("SELECT 1 AS x FROM ledger_entries WHERE dataset_id = $datasetId AND type = 'reserve' LIMIT 1", { datasetId }));
}
