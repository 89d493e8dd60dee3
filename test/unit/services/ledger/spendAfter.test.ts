/**
 * The budget after a release never reads below the spend, although the two PLD upper bounds are
 * computed on their own grids; budgetAfter is the one place the job prices read it from.
 */
import { describe, expect, it } from 'vitest';
import { composed, gaussian, poissonSampled, pureDp } from '../../../../core/accounting/events';
import { chargeEach, composedEpsilonUpper, spendAfter } from '../../../../electron/services/ledger/ledgerAccounting';
import { budgetAfter } from '../../../../electron/services/ledger/releaseLedger';

describe('spendAfter', () => {
  it('is at least the spend where composing one tiny release comes out a hair lower', () => {
    const spent = [composed(poissonSampled(0.02, gaussian(2, Math.SQRT2)), 50), composed(poissonSampled(0.01, gaussian(2.6, Math.SQRT2)), 50)];
    const before = composedEpsilonUpper(chargeEach(spent), 1e-6);
    // The case the clamp is for: both are valid upper bounds, the second a little lower.
    expect(composedEpsilonUpper(chargeEach([...spent, pureDp(0.001)]), 1e-6)).toBeLessThan(before);
    expect(spendAfter(spent, pureDp(0.001), 1e-6, before)).toBe(before);
    // A release that costs something visible is reported as computed.
    const large = spendAfter(spent, pureDp(0.5), 1e-6, before);
    expect(large).toBeGreaterThan(before + 0.4);
  });
});

describe('budgetAfter (what every job price shows)', () => {
  const spent = [composed(poissonSampled(0.02, gaussian(2, Math.SQRT2)), 50)];
  const budget = { cap: 3, delta: 1e-6, spent };

  it('is null without a budget; else the cap, the spend and the spend after one more release', () => {
    expect(budgetAfter(null, pureDp(0.5))).toBeNull();
    const before = composedEpsilonUpper(chargeEach(spent), 1e-6);
    expect(budgetAfter(budget, pureDp(0.5))).toEqual({ cap: 3, spent: before, afterJob: spendAfter(spent, pureDp(0.5), 1e-6, before) });
    expect(budgetAfter({ ...budget, spent: [] }, pureDp(0.5))).toEqual({ cap: 3, spent: 0, afterJob: composedEpsilonUpper(chargeEach([pureDp(0.5)]), 1e-6) });
  });

  it('never reads below the spend, and may pass the cap (the prices then warn)', () => {
    const tiny = budgetAfter(budget, pureDp(0.001))!;
    expect(tiny.afterJob).toBeGreaterThanOrEqual(tiny.spent);
    expect(budgetAfter(budget, pureDp(5))!.afterJob).toBeGreaterThan(3);
  });
});
