/**
 * Verification of the ledger: recompute every entry's hash and every link of each
 * dataset's chain, check each entry's content is well formed, then replay the budgets
 * and recompute the total spend from the stored events. Reports every problem in chain
 * order, so the first one names the first bad entry. What this does and does not prove:
 * docs/ledger.md.
 */
import { toEpsilonBound, type EpsilonBound } from '../../shared/api/ledger';
import type { Database, Queryable } from '../db/database';
import { checkAnchor, headProblems, parseAnchor } from './anchor';
import { chainProblems, guardProblems, unitMismatches, type VerificationProblem } from './chainIntegrity';
import type { LedgerEntryRecord } from './hashChain';
import { coversRecomputed } from '../../../core/accounting/recordedBound';
import { accountSpend } from './ledgerAccounting';
import { readChain } from './ledgerStore';
import { storedEvent } from './reservations';


export type { VerificationProblem };

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
  // The recorded total must cover the recomputed one (an accountant tighter since is fine).
  if (!coversRecomputed(last.spentEpsilon!, recomputed, TOTAL_TOLERANCE)) {
    problem(last, 'spent_epsilon', `records a total of ε=${last.spentEpsilon}, but recomputing from the stored events gives ε=${recomputed === Infinity ? '∞ (no finite ε at this δ)' : recomputed}`);
  }
  return found;
}

export interface VerifyOptions {
  /** A chain head kept elsewhere (an export, a printed report): it must still be in the chain. */
  expectedHead?: string;
  /** A copy of the anchor file kept elsewhere: each dataset's newest line must still be in its chain. */
  anchorCopy?: string;
}

/** Verifies one dataset's chain, or every chain. */
export async function verifyLedger(db: Database, datasetId?: number, options: VerifyOptions = {}): Promise<VerificationReport> {
  const q: Queryable = db;
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
  // Datasets in scope whose entries are all gone are checked against the anchor as empty chains.
  const scope = datasetId === undefined ? (await q.all<{ id: number }>('SELECT id FROM datasets')).map((d) => d.id) : [datasetId];
  const chainsInScope = new Map(scope.map((id) => [id, byDataset.get(id) ?? []]));
  problems.push(...(await checkAnchor(db, q, chainsInScope)));
  if (options.anchorCopy !== undefined) {
    const copy = parseAnchor(options.anchorCopy, 'the anchor copy');
    problems.push(...copy.problems, ...headProblems(copy, chainsInScope));
  }
  problems.push(...(await unitProblems(q, rows)), ...(await guardProblems(q)), ...(await danglingRunProblems(q, datasetId)));
  return { ok: problems.length === 0, problems, chains };
}

async function unitProblems(q: Queryable, rows: readonly LedgerEntryRecord[]): Promise<VerificationProblem[]> {
  const units = new Map((await q.all<{ id: number; unit: string }>('SELECT id, privacy_unit AS unit FROM datasets')).map((d) => [d.id, d.unit]));
  return rows.flatMap((entry) => unitMismatches([entry], units.get(entry.datasetId)));
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
