/**
 * The integrity of one dataset's hash chain — every entry's hash, every link, every entry well
 * formed — and the append-only guard triggers. `veil ledger verify` reports these problems;
 * a reservation refuses to charge a ledger that has any (a ledger altered in the file cannot
 * vouch for the budget it would be charged against).
 */
import { privacyEventSchema } from '../../../core/accounting/events';
import { canonicalJson } from '../../../core/export/canonicalJson';
import type { Queryable } from '../db/database';
import { GENESIS_HASH, hashEntry, type LedgerEntryRecord } from './hashChain';

export interface VerificationProblem {
  datasetId: number;
  /** The bad entry (null for a problem of the chain as a whole). */
  entryId: number | null;
  seq: number | null;
  /** The column or check that failed: entry_hash, prev_hash, seq, event_json, spent_epsilon, head, … */
  field: string;
  message: string;
}

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

/**
 * Problems of one dataset's chain. The first `trusted` entries (verified before by this
 * process, with no other connection writing since) are only walked, not re-hashed.
 */
export async function chainProblems(chain: readonly LedgerEntryRecord[], trusted = 0): Promise<VerificationProblem[]> {
  const found: VerificationProblem[] = [];
  let prevHash = GENESIS_HASH;
  const reservationIds = new Set<number>();
  for (const [index, entry] of chain.entries()) {
    if (index < trusted) {
      if (entry.type === 'reserve') reservationIds.add(entry.id);
      prevHash = entry.entryHash;
      continue;
    }
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

/**
 * Without its guard triggers the table can be edited, and a chain cut at its end verifies:
 * a removed guard is itself a failure (the ledger can no longer vouch for its tail).
 */
export async function guardProblems(q: Queryable): Promise<VerificationProblem[]> {
  const triggers = await q.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger_entries'");
  const missing = GUARD_TRIGGERS.filter((name) => !triggers.some((t) => t.name === name));
  if (missing.length === 0) return [];
  return [{ datasetId: 0, entryId: null, seq: null, field: 'triggers', message: `the append-only guard triggers were removed (${missing.join(', ')}): entries may have been altered or removed from the end` }];
}

/**
 * A reservation names the privacy unit it was charged per (entries written before it did
 * name none). Veil refuses to change the unit of a charged dataset, so a dataset whose unit
 * differs from its charges was altered outside Veil: its spend no longer bounds one unit's loss.
 */
export function unitMismatches(chain: readonly LedgerEntryRecord[], unitNow: string | undefined): VerificationProblem[] {
  return chain.flatMap((entry) => {
    const charged = entry.type === 'reserve' ? chargedUnit(entry.parametersJson) : undefined;
    if (charged === undefined || unitNow === undefined || charged === unitNow) return [];
    return [{ datasetId: entry.datasetId, entryId: entry.id, seq: entry.seq, field: 'privacy_unit', message: `charged per ${String(charged)}, but the dataset's privacy unit is now ${unitNow}: the dataset was changed outside Veil` }];
  });
}

function chargedUnit(parametersJson: string): unknown {
  try {
    return (JSON.parse(parametersJson) as { privacyUnit?: unknown } | null)?.privacyUnit;
  } catch {
    return undefined; // reported as not canonical JSON
  }
}
