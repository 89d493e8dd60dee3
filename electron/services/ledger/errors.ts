/** Errors of the privacy ledger, each with a message an analyst can act on. */

/** Base class: anything the ledger refuses on purpose (not a bug). */
export class LedgerError extends Error {}

/** The dataset has no budget yet: a release cannot be charged to nothing. */
export class NoBudgetError extends LedgerError {
  constructor(readonly dataset: string) {
    super(`dataset "${dataset}" has no privacy budget; set one first (veil budget set --dataset NAME --epsilon E)`);
  }
}

/** A larger δ after charges would re-price past releases at that δ and give budget back; nothing was written. */
export class DeltaRaiseError extends LedgerError {
  constructor(readonly dataset: string, readonly current: number, readonly requested: number) {
    super(
      `δ cannot be raised from ${current.toExponential(2)} to ${requested.toExponential(2)} on dataset "${dataset}": it has charges, ` +
        'and a larger δ would re-price them at a smaller ε (budget given back). Lowering δ is allowed; the budget was not changed',
    );
  }
}

export interface OverspendNumbers {
  dataset: string;
  /** ε upper bound of everything already reserved or committed (at δ). */
  spent: number;
  /** ε upper bound of the new event alone (at δ). */
  requested: number;
  /** ε upper bound of the composition of both (at δ); not the sum under PLD. */
  total: number;
  cap: number;
  delta: number;
}

/** The reservation would take the composed ε over the dataset's cap; nothing was written. */
export class BudgetExceededError extends LedgerError {
  constructor(readonly numbers: OverspendNumbers) {
    const f = (x: number) => (Number.isFinite(x) ? x.toPrecision(4) : '∞');
    super(
      `privacy budget exceeded for dataset "${numbers.dataset}": spent ε=${f(numbers.spent)}, ` +
        `requested ε=${f(numbers.requested)}, together ε=${f(numbers.total)} > cap ε=${f(numbers.cap)} ` +
        `(all at δ=${numbers.delta.toExponential(2)})` +
        (numbers.total === Infinity ? ': no finite ε bounds them together at this δ (their own δ add up to more than it)' : '') +
        '; the release was refused and nothing was recorded',
    );
  }
}

/**
 * The release alone has no finite ε at the dataset's δ: an (ε, δ₀)-DP release with δ₀ above
 * it guarantees nothing there (its privacy loss is unbounded with probability δ₀), so no
 * cap admits it. Nothing was written.
 */
export class NoFiniteEpsilonError extends LedgerError {
  constructor(readonly dataset: string, readonly delta: number, what: string) {
    super(
      `no finite ε bounds ${what} at the δ=${delta.toExponential(2)} of dataset "${dataset}": its own δ₀ is larger, ` +
        'and at δ < δ₀ an (ε, δ₀)-DP release guarantees nothing, so no cap admits it (restate it with δ₀ at most the ' +
        "dataset's δ); the release was refused and nothing was recorded",
    );
  }
}

/**
 * Releases stated under different neighbouring relations cannot be composed: an add/remove
 * guarantee and a replace-one guarantee bound different pairs of datasets, and replace-one
 * ε-DP does not imply add/remove DP at all. A dataset's ledger holds one relation.
 */
export class RelationMismatchError extends LedgerError {
  constructor(relations: readonly string[], dataset?: string) {
    super(
      `${dataset ? `the ledger of dataset "${dataset}"` : 'these releases'} would mix neighbouring relations (${relations.join(' and ')}), ` +
        'which cannot be composed; charge every release of a dataset under one relation (Veil\'s own mechanisms use add-remove: ' +
        'restate an external release under add/remove before recording it)' +
        (dataset ? '; the release was refused and nothing was recorded' : ''),
    );
  }
}

/**
 * The dataset's ledger fails its integrity check (an entry altered, removed or moved in the
 * file, or the guard triggers dropped): the budget it records cannot be trusted, so nothing
 * more is charged against it until it is restored from a verified copy.
 */
export class LedgerTamperedError extends LedgerError {
  constructor(dataset: string, first: { entryId: number | null; field: string; message: string }) {
    super(
      `the privacy ledger of dataset "${dataset}" fails verification (${first.entryId === null ? '' : `entry ${first.entryId}, `}${first.field}: ${first.message}); ` +
        'no release is charged against a ledger that cannot vouch for its budget — run veil ledger verify and restore a verified copy; nothing was recorded',
    );
  }
}
