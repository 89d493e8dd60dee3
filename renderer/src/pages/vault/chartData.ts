/** The vault charts' data from `vault.stats`: one row per label with a count per split, and display names. */
import type { z } from 'zod';
import type { Split, statsSchema } from '../../../../electron/shared/api/vault';

export type VaultStats = z.infer<typeof statsSchema>;

export const SPLITS: readonly Split[] = ['private', 'public', 'held-out'];
export const splitName: Record<Split, string> = { private: 'Private', public: 'Public', 'held-out': 'Held-out' };
/** Records without a label are charted and filtered under this name (the API matches them with ""). */
export const NO_LABEL = '(no label)';

export interface LabelRow {
  [key: string]: string | number;
  label: string;
  private: number;
  public: number;
  heldOut: number;
}

export function labelRows(stats: VaultStats): LabelRow[] {
  return stats.labels.map((l) => ({ label: l.label ?? NO_LABEL, private: l.private, public: l.public, heldOut: l.heldOut }));
}

export function splitRows(stats: VaultStats): { split: string; records: number }[] {
  return [
    { split: splitName.private, records: stats.splits.private },
    { split: splitName.public, records: stats.splits.public },
    { split: splitName['held-out'], records: stats.splits.heldOut },
  ];
}
