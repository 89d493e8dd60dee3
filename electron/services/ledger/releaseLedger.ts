/**
 * What budgeted release jobs (synthesis, answering) read from the ledger: the budget in force
 * with every event reserved against it, and the view of a commit a certificate verifier checks.
 */
import type { PrivacyEvent } from '../../../core/accounting/events';
import type { CommitRecord, LedgerView } from '../../../core/export/verifyDpPrompt';
import type { LedgerService } from './ledgerService';

export interface BudgetState {
  cap: number;
  delta: number;
  /** Events already reserved or committed. */
  spent: PrivacyEvent[];
}

/** The budget in force and every event reserved against it (committed or not). */
export async function budgetState(ledger: LedgerService, datasetId: number): Promise<BudgetState | null> {
  const budget = await ledger.budget(datasetId);
  if (!budget) return null;
  const spent = (await ledger.entries(datasetId)).flatMap((e) => (e.type === 'reserve' && e.event ? [e.event] : []));
  return { cap: budget.epsilon, delta: budget.delta, spent };
}

/** The commit a certificate names, with its reservation and the chain's integrity; `issued` finds the document as issued. */
export function certificateLedgerView(ledger: LedgerService, issued: (entryId: number) => Promise<unknown>): LedgerView {
  return {
    commit: async (entryId): Promise<CommitRecord | null> => {
      const commit = await ledger.entry(entryId);
      if (!commit || commit.type !== 'commit' || commit.reservationId === null) return null;
      const reservation = await ledger.entry(commit.reservationId);
      const report = await ledger.verify(commit.datasetId);
      return {
        entryHash: commit.entryHash,
        outputHash: commit.outputHash,
        eventJson: reservation?.eventJson ?? '',
        parameters: reservation ? (JSON.parse(reservation.parametersJson) as Record<string, unknown>) : {},
        chainIntact: report.ok,
        issued: (await issued(entryId)) ?? undefined,
      };
    },
  };
}
