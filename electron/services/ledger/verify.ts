/**
 * Verification of the ledger: recompute every entry's hash and every link of each
 * dataset's chain, check each entry's content is well formed, then replay the budgets
 * and recompute the total spend from the stored events. Reports every problem in chain
 * order, so the first one names the first bad entry. What this does and does not prove:
 * docs/ledger.md.
 */
import { privacyEventSchema } from '../../../core/accounting/events';
import { canonicalJson } from '../../../core/export/canonicalJson';
import { toEpsilonBound, type EpsilonBound } from '../../shared/api/ledger';
import type { Queryable } from '../db/database';
import { GENESIS_HASH, hashEntry, type LedgerEntryRecord } from './hashChain';
import { accountSpend } from './ledgerAccounting';
import { readChain } from './ledgerStore';
import { storedEvent } from './reservations';

export interface VerificationProblem {
  datasetId: number;
  /** The bad entry (null for a problem of the chain as a whole). */
  entryId: number | null;
  seq: number | null;
  /** The column or check that failed: entry_hash, prev_hash, seq, event_json, spent_epsilon, head, … */
  field: string;
  message: string;
}

export interface ChainVerification {
  datasetId: number;
  entries: number;
  head: string;
  /** ε upper bound recorded by the last reservation, and the same recomputed now. */
  recordedEpsilon: number | null;
  /** "Infinity" when the stored events have no finite ε at the recorded δ. */
  recomputedEpsilon: EpsilonBound | null;
}

export interface VerificationReport {
  ok: boolean;
  problems: VerificationProblem[];
  chains: ChainVerification[];
}

const TOTAL_TOLERANCE = 1e-6;
const GUARD_TRIGGERS = ['ledger_entries_no_update', 'ledger_entries_no_delete'];

type Problem = [field: string, message: string];

const isCanonical = (text: string, parse: (value: unknown) => unknown): boolean => {
  try {
    return canonicalJson(parse(JSON.parse(text))) === text;
  } catch {
    return false;
  }
};

function contentProblems(entry: LedgerEntryRecord, earlierReservations: ReadonlySet<number>): Problem[] {
  const problems: Problem[] = [];
  if (!isCanonical(entry.parametersJson, (v) => v)) problems.push(['parameters_json', 'is not canonical JSON']);
  if (entry.type === 'reserve' && !isCanonical(entry.eventJson ?? '', (v) => privacyEventSchema.parse(v))) {
    problems.push(['event_json', 'is not a valid privacy event in canonical JSON']);
  }
  if (entry.type === 'budget' && !(entry.epsilonCap! > 0 && entry.delta! > 0 && entry.delta! < 1)) {
    problems.push(['epsilon_cap', 'the budget needs ε > 0 and δ in (0, 1)']);
  }
  if (entry.type === 'commit' && !earlierReservations.has(entry.reservationId!)) {
    problems.push(['reservation_id', `names no earlier reservation of this dataset (${entry.reservationId})`]);
  }
  return problems;
}

async function chainProblems(chain: readonly LedgerEntryRecord[]): Promise<VerificationProblem[]> {
  const found: VerificationProblem[] = [];
  let prevHash = GENESIS_HASH;
  const reservationIds = new Set<number>();
  for (const [index, entry] of chain.entries()) {
    const problems: Problem[] = [];
    if (entry.seq !== index + 1) problems.push(['seq', `expected position ${index + 1}, found ${entry.seq}: an entry was removed, inserted or moved`]);
    if (entry.prevHash !== prevHash) problems.push(['prev_hash', "does not match the previous entry's hash: the chain is broken here"]);
    if ((await hashEntry(entry)) !== entry.entryHash) problems.push(['entry_hash', "does not match the entry's content: this entry was altered"]);
    problems.push(...contentProblems(entry, reservationIds));
    found.push(...problems.map(([field, message]) => ({ datasetId: entry.datasetId, entryId: entry.id, seq: entry.seq, field, message })));
    if (entry.type === 'reserve') reservationIds.add(entry.id);
    prevHash = entry.entryHash;
  }
  return found;
}

/** Replays the budgets and recomputes the spend; only meaningful on an intact chain. */
function totalProblems(chain: readonly LedgerEntryRecord[], summary: ChainVerification): VerificationProblem[] {
  const found: VerificationProblem[] = [];
  const problem = (entry: LedgerEntryRecord, field: string, message: string) =>
    found.push({ datasetId: entry.datasetId, entryId: entry.id, seq: entry.seq, field, message });
  let budget: LedgerEntryRecord | undefined;
  for (const entry of chain) {
    if (entry.type === 'budget') budget = entry;
    if (entry.type !== 'reserve') continue;
    if (!budget) problem(entry, 'type', 'a reservation before any budget was set');
    else if (entry.delta !== budget.delta) problem(entry, 'delta', `computed at δ=${entry.delta}, but the budget in force has δ=${budget.delta}`);
    else if (!(entry.spentEpsilon! <= budget.epsilonCap!)) problem(entry, 'spent_epsilon', `records ε=${entry.spentEpsilon} above the cap ε=${budget.epsilonCap} in force`);
  }
  const reserves = chain.filter((e) => e.type === 'reserve');
  const last = reserves.at(-1);
  if (!last || found.length > 0) return found;
  summary.recordedEpsilon = last.spentEpsilon;
  const recomputed = accountSpend(reserves.map(storedEvent), last.delta!).epsilon.upper;
  summary.recomputedEpsilon = toEpsilonBound(recomputed);
  const gap = Math.abs(recomputed - last.spentEpsilon!);
  if (!(gap <= TOTAL_TOLERANCE * Math.max(1, last.spentEpsilon!))) {
    problem(last, 'spent_epsilon', `records a total of ε=${last.spentEpsilon}, but recomputing from the stored events gives ε=${recomputed === Infinity ? '∞ (no finite ε at this δ)' : recomputed}`);
  }
  return found;
}

export interface VerifyOptions {
  /** A chain head kept elsewhere (an export, a printed report): it must still be in the chain. */
  expectedHead?: string;
}

/** Verifies one dataset's chain, or every chain. */
export async function verifyLedger(q: Queryable, datasetId?: number, options: VerifyOptions = {}): Promise<VerificationReport> {
  const rows = await readChain(q, datasetId);
  const byDataset = new Map<number, LedgerEntryRecord[]>();
  for (const row of rows) {
    const chain = byDataset.get(row.datasetId);
    if (chain) chain.push(row);
    else byDataset.set(row.datasetId, [row]);
  }
  const problems: VerificationProblem[] = [];
  const chains: ChainVerification[] = [];
  for (const [id, chain] of byDataset) {
    const summary: ChainVerification = { datasetId: id, entries: chain.length, head: chain.at(-1)!.entryHash, recordedEpsilon: null, recomputedEpsilon: null };
    const broken = await chainProblems(chain);
    problems.push(...(broken.length > 0 ? broken : totalProblems(chain, summary)));
    chains.push(summary);
  }
  if (options.expectedHead && !rows.some((row) => row.entryHash === options.expectedHead)) {
    problems.push({
      datasetId: datasetId ?? 0, entryId: null, seq: null, field: 'head',
      message: `the expected chain head ${options.expectedHead} is not in the ledger: entries were removed or the chain was rewritten`,
    });
  }
  problems.push(...(await unitProblems(q, rows)), ...(await guardProblems(q)), ...(await danglingRunProblems(q, datasetId)));
  return { ok: problems.length === 0, problems, chains };
}

/**
 * A reservation names the privacy unit it was charged per (entries written before it did
 * name none). Veil refuses to change the unit of a charged dataset, so a dataset whose unit
 * differs from its charges was altered outside Veil: its spend no longer bounds one unit's loss.
 */
function chargedUnit(parametersJson: string): unknown {
  try {
    return (JSON.parse(parametersJson) as { privacyUnit?: unknown } | null)?.privacyUnit;
  } catch {
    return undefined; // reported as not canonical JSON
  }
}

async function unitProblems(q: Queryable, rows: readonly LedgerEntryRecord[]): Promise<VerificationProblem[]> {
  const units = new Map((await q.all<{ id: number; unit: string }>('SELECT id, privacy_unit AS unit FROM datasets')).map((d) => [d.id, d.unit]));
  return rows.flatMap((entry) => {
    const charged = entry.type === 'reserve' ? chargedUnit(entry.parametersJson) : undefined;
    const now = units.get(entry.datasetId);
    if (charged === undefined || now === undefined || charged === now) return [];
    return [{ datasetId: entry.datasetId, entryId: entry.id, seq: entry.seq, field: 'privacy_unit', message: `charged per ${String(charged)}, but the dataset's privacy unit is now ${now}: the dataset was changed outside Veil` }];
  });
}

/**
 * Without its guard triggers the table can be edited, and a chain cut at its end verifies:
 * a removed guard is itself a failure (the ledger can no longer vouch for its tail).
 */
async function guardProblems(q: Queryable): Promise<VerificationProblem[]> {
  const triggers = await q.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger_entries'");
  const missing = GUARD_TRIGGERS.filter((name) => !triggers.some((t) => t.name === name));
  if (missing.length === 0) return [];
  return [{ datasetId: 0, entryId: null, seq: null, field: 'triggers', message: `the append-only guard triggers were removed (${missing.join(', ')}): entries may have been altered or removed from the end` }];
}

const DANGLING_RUNS = `SELECT r.id, r.ledger_entry_id AS entryId FROM synthesis_runs r
  LEFT JOIN ledger_entries e ON e.id = r.ledger_entry_id
  WHERE r.ledger_entry_id IS NOT NULL AND e.id IS NULL
    AND ($dataset IS NULL OR r.dataset_name = (SELECT name FROM datasets WHERE id = $dataset))`;

/** Entries that synthesis runs were charged to must still exist: catches a chain cut at its end. */
async function danglingRunProblems(q: Queryable, datasetId: number | undefined): Promise<VerificationProblem[]> {
  const dangling = await q.all<{ id: number; entryId: number }>(DANGLING_RUNS, { dataset: datasetId ?? null });
  return dangling.map((r) => ({
    datasetId: datasetId ?? 0, entryId: r.entryId, seq: null, field: 'synthesis_runs',
    message: `synthesis run ${r.id} was charged to ledger entry ${r.entryId}, which is no longer in the ledger`,
  }));
}
