/**
 * The ledger's hash chain. Each dataset has its own chain: entry k stores the hash of
 * entry k−1 (`prevHash`; the first entry stores GENESIS_HASH) and its own `entryHash` =
 * SHA-256 of the canonical JSON of every stored column but `entryHash` (JSON columns
 * hashed as their stored text, so any changed byte changes the hash). Recomputing the
 * chain detects an edited, inserted, removed or reordered entry; it cannot detect a chain
 * rewritten from the edit onwards, nor a truncated tail, unless the head is compared
 * with a copy kept elsewhere (docs/ledger.md).
 */
import { canonicalJson, sha256Hex } from '../../../core/export/canonicalJson';

export const LEDGER_SCHEME = 'veil.ledger/v1';
/** prevHash of the first entry of every dataset's chain. */
export const GENESIS_HASH = '0'.repeat(64);

export type EntryType = 'budget' | 'reserve' | 'commit';

/** One stored ledger row, column for column. */
export interface LedgerEntryRecord {
  id: number;
  datasetId: number;
  /** 1, 2, 3, … within the dataset's chain. */
  seq: number;
  type: EntryType;
  /** reserve: the privacy event as canonical JSON. */
  eventJson: string | null;
  /** budget: the ε cap. */
  epsilonCap: number | null;
  /** budget: the dataset's δ; reserve: the δ at which `spentEpsilon` was computed. */
  delta: number | null;
  /** reserve: ε upper bound of everything reserved up to and including this entry. */
  spentEpsilon: number | null;
  /** reserve: which accountant produced `spentEpsilon` ('pld' or 'rdp'). */
  accountant: string | null;
  /** Canonical JSON of the release's parameters (no private text). */
  parametersJson: string;
  purpose: string;
  jobId: string | null;
  actor: string;
  createdAt: string;
  /** commit: the reservation it completes. */
  reservationId: number | null;
  /** commit: SHA-256 of the released content, when the caller has one. */
  outputHash: string | null;
  prevHash: string;
  entryHash: string;
}

export type UnhashedEntry = Omit<LedgerEntryRecord, 'entryHash'>;

/** SHA-256 (hex) of an entry's content and its predecessor's hash. */
export function hashEntry(entry: UnhashedEntry): Promise<string> {
  const content: Record<string, unknown> = { scheme: LEDGER_SCHEME };
  for (const [key, value] of Object.entries(entry)) if (key !== 'entryHash') content[key] = value;
  return sha256Hex(canonicalJson(content));
}
