/**
 * What the UI, the CLI and exports show of an entry: the stored columns plus parsed JSON
 * and a derived status. Status is never stored (rows are append-only): a reservation is
 * 'committed' once a commit entry references it, 'reserved' while its job (or the call
 * that made it) is still running here, and otherwise 'orphaned' — counted as spent,
 * because its output may have been released before the job died.
 */
import { privacyEventSchema, type PrivacyEvent } from '../../../core/accounting/events';
import type { LedgerEntryRecord } from './hashChain';

export type ReservationStatus = 'reserved' | 'committed' | 'orphaned';

const STATUS_TEXT: Record<ReservationStatus, string> = {
  reserved: 'reserved: release in progress',
  committed: 'committed: released',
  orphaned: 'counted as spent: job did not finish',
};

export interface LedgerEntryView extends LedgerEntryRecord {
  event: PrivacyEvent | null;
  parameters: Record<string, unknown>;
  /** Reservations only. */
  status: ReservationStatus | null;
  statusText: string | null;
  /** Reservations only: the commit entry completing it. */
  commitId: number | null;
}

/** Whether an uncommitted reservation's release may still be under way. */
export type InProgress = (reservation: LedgerEntryRecord) => boolean;

function parseJson(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

export function entryViews(chain: readonly LedgerEntryRecord[], inProgress: InProgress): LedgerEntryView[] {
  const commits = new Map(chain.filter((e) => e.type === 'commit').map((e) => [e.reservationId!, e.id]));
  return chain.map((entry) => {
    const event = privacyEventSchema.safeParse(parseJson(entry.eventJson));
    const parameters = parseJson(entry.parametersJson);
    let status: ReservationStatus | null = null;
    if (entry.type === 'reserve') status = commits.has(entry.id) ? 'committed' : inProgress(entry) ? 'reserved' : 'orphaned';
    return {
      ...entry,
      event: entry.type === 'reserve' && event.success ? event.data : null,
      parameters: parameters && typeof parameters === 'object' ? (parameters as Record<string, unknown>) : {},
      status,
      statusText: status && STATUS_TEXT[status],
      commitId: commits.get(entry.id) ?? null,
    };
  });
}
