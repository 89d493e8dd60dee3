/**
 * How the Budget page words the ledger: ε values, the share of the cap spent, what is left
 * in the analyst's terms, the reservation counts and one line per ledger entry.
 */
import type { LedgerEntryDto, LedgerSummary } from '../../../../electron/shared/api/ledger';
import type { Workload } from '../../../../electron/shared/api/planner';
import { describeEvent } from '../../../../core/accounting/describeEvent';

/** ε and friends to four significant digits, without trailing zeros; ∞ for overflow and for "Infinity" (no finite ε at that δ). */
export function formatEpsilon(x: number | 'Infinity' | null): string {
  if (x === null) return '—';
  return typeof x === 'number' && Number.isFinite(x) ? Number(x.toPrecision(4)).toString() : '∞';
}

export const formatDelta = (delta: number) => delta.toExponential(1);

/** Percent of the cap spent (0–100, clamped) for the progress bar; "Infinity" (no finite ε) is all of it. */
export function spentPercent(spent: number | 'Infinity', cap: number): number {
  if (!(cap > 0) || spent === 'Infinity') return 100;
  return Math.min(100, Math.max(0, (100 * spent) / cap));
}

/** "12 more synthetic prompts of this kind"; answering plans count runs of their queries. */
export function remainingInTerms(workload: Workload, runs: number, atLimit: boolean): string {
  const atLeast = atLimit ? 'at least ' : '';
  if (workload.kind === 'synth') {
    if (runs === 0) return 'no more synthetic prompts of this kind fit in the budget';
    return `${atLeast}${runs.toLocaleString('en-US')} more synthetic prompt${runs === 1 ? '' : 's'} of this kind`;
  }
  if (runs === 0) return `no more batches of ${workload.queries.toLocaleString('en-US')} private answers of this kind fit in the budget`;
  const answers = runs * workload.queries;
  return `${atLeast}${answers.toLocaleString('en-US')} more private answers of this kind (${runs.toLocaleString('en-US')} × ${workload.queries.toLocaleString('en-US')} queries)`;
}

/** "1 in progress · 3 committed · 1 counted as spent (job did not finish)". */
export function reservationsLine({ reserved, committed, orphaned }: LedgerSummary['reservations']): string {
  const parts = [`${reserved} in progress`, `${committed} committed`];
  if (orphaned > 0) parts.push(`${orphaned} counted as spent (job did not finish)`);
  return parts.join(' · ');
}

/** An entry as everything names it — its id (certificates, commits, verify) — with its position in the dataset's chain. */
export const entryName = (entry: { id: number; seq: number }) => `${entry.id} (#${entry.seq})`;

/** What an entry is about, in one line. */
export function entryDescription(entry: LedgerEntryDto): string {
  if (entry.type === 'budget') return `budget: cap ε = ${formatEpsilon(entry.epsilonCap)}, δ = ${entry.delta === null ? '—' : formatDelta(entry.delta)}`;
  if (entry.type === 'commit') return `commits entry ${entry.reservationId ?? '?'}`;
  return entry.event ? describeEvent(entry.event) : '(unreadable event)';
}

/** The ε spent after an entry: recorded on reservations only. */
export const entryEpsilonAfter = (entry: LedgerEntryDto) => (entry.type === 'reserve' ? formatEpsilon(entry.spentEpsilon) : '—');

/** The first problem of a failed verification, worded for an alert. */
export function firstProblem(problems: readonly { entryId: number | null; seq: number | null; field: string; message: string }[]): string {
  const [first] = problems;
  if (!first) return 'no problem reported';
  return `${first.entryId === null || first.seq === null ? 'ledger' : `entry ${entryName({ id: first.entryId, seq: first.seq })}`} (${first.field}): ${first.message}`;
}
