/** The set-budget form: parse ε and δ, and the default δ (core/accounting/defaultDelta.ts) the service will use. */
import type { BudgetDto } from '../../../../electron/shared/api/ledger';
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { PrivacyUnitsDto } from '../../../../electron/shared/api/privacyUnits';
import { DEFAULT_DELTA_RULE, defaultDelta, formatDelta } from '../../../../core/accounting/defaultDelta';

export interface BudgetFormState {
  epsilon: string;
  delta: string;
  purpose: string;
}

export interface BudgetChange {
  epsilon: number;
  delta?: number;
  purpose?: string;
}

export type BudgetFormResult = { ok: true; change: BudgetChange } | { ok: false; errors: Partial<Record<keyof BudgetFormState, string>> };

/** N and what it counts: the budget's count, else the services' count (budget.privacyUnits); both are privacyUnitCount. */
export interface PrivacyUnits {
  n: number;
  unit: 'record' | 'subject';
}

/**
 * N for the δ field: null when the private split is empty, undefined while the services' count is not in.
 * The page never counts N itself: a subject-level N counts each record without a subject as
 * its own subject, which only the services' count (the one the default δ uses) does.
 */
export function privacyUnits(budget: BudgetDto | null, dataset: DatasetDto | undefined, counted?: PrivacyUnitsDto | null): PrivacyUnits | null | undefined {
  if (!dataset) return null;
  if (budget) return budget.privacyUnits ? { n: budget.privacyUnits, unit: dataset.privacyUnit } : null;
  if (counted?.datasetId !== dataset.id) return undefined; // not counted yet (or counted for another dataset)
  return counted.n ? { n: counted.n, unit: counted.unit } : null;
}

/**
 * Whether N must be asked for (budget.privacyUnits, a count over the dataset's index): only for
 * a dataset without a budget, since a budget carries N (`privacyUnits`). `budget` undefined: the
 * summary is not read yet.
 */
export function needsUnitCount(dataset: DatasetDto | undefined, budget: BudgetDto | null | undefined): boolean {
  return dataset !== undefined && budget === null;
}

/** Helper text for the δ field: what an empty field means; with charges, that δ may only go down. */
export function defaultDeltaHint(units: PrivacyUnits | null | undefined, ceiling: number | null = null): string {
  if (ceiling !== null) return `this dataset has charges: δ may only go down from ${ceiling.toExponential(2)} (a larger δ would re-price them lower and give budget back)`;
  if (units === undefined) return `empty: δ = ${DEFAULT_DELTA_RULE} for the N privacy units of the private split (N not counted yet)`;
  if (units === null) return 'δ is required: the private split is empty, so there is no N for a default';
  const counted = `${units.n.toLocaleString('en-US')} ${units.unit}${units.n === 1 ? '' : 's'}`;
  return `empty: δ = ${formatDelta(defaultDelta(units.n))} = ${DEFAULT_DELTA_RULE} (N = ${counted} in the private split; common practice: δ ≪ 1/N)`;
}

export function formFromBudget(budget: BudgetDto | null): BudgetFormState {
  return { epsilon: budget ? String(budget.epsilon) : '', delta: budget ? String(budget.delta) : '', purpose: '' };
}

/** `ceiling`: the δ in force when the dataset has charges (the service refuses a larger one). */
export function parseBudgetForm(form: BudgetFormState, ceiling: number | null = null): BudgetFormResult {
  const errors: Partial<Record<keyof BudgetFormState, string>> = {};
  const epsilon = Number(form.epsilon);
  if (form.epsilon.trim() === '' || !(epsilon > 0 && Number.isFinite(epsilon))) errors.epsilon = 'ε must be a number > 0';
  const delta = form.delta.trim() === '' ? undefined : Number(form.delta);
  if (delta !== undefined && !(delta > 0 && delta < 1)) errors.delta = 'δ must be in (0, 1), e.g. 1e-6';
  else if (delta !== undefined && ceiling !== null && delta > ceiling) errors.delta = `δ cannot be raised above ${ceiling.toExponential(2)}: this dataset has charges, and a larger δ would give budget back`;
  if (form.purpose.length > 500) errors.purpose = 'at most 500 characters';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const purpose = form.purpose.trim();
  return { ok: true, change: { epsilon, delta, purpose: purpose === '' ? undefined : purpose } };
}
