/**
 * What budgeted release jobs (synthesis, answering) read from the ledger: the budget in force
 * with every event reserved against it, and the view of a commit a certificate verifier checks.
 */
import type { PrivacyEvent } from '../../../core/accounting/events';
import type { CommitRecord, LedgerView } from '../../../core/export/verifyDpPrompt';
import { chargeEach, composedEpsilonUpper, spendAfter } from './ledgerAccounting';
import type { LedgerService } from './ledgerService';

export interface BudgetState {
  cap: number;
  delta: number;
  /** Events already reserved or committed. */
  spent: PrivacyEvent[];
}

/** A budget as a price shows it: the cap, ε spent, and ε after one more release (upper bounds at the budget's δ). */
export interface BudgetAfter {
  cap: number;
  spent: number;
  /** Never below `spent` (spendAfter). */
  afterJob: number;
}

/** The budget before and after one more release of `charge` (null without a budget): what every job's price shows. */
export function budgetAfter(budget: BudgetState | null, charge: PrivacyEvent): BudgetAfter | null {
  if (!budget) return null;
  const spent = composedEpsilonUpper(chargeEach(budget.spent), budget.delta);
  return { cap: budget.cap, spent, afterJob: spendAfter(budget.spent, charge, budget.delta, spent) };
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
