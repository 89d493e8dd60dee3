/**
 * The early refusal of a release whose ε alone exceeds the cap applies only where the request
 * is priced at the budget's δ or above: with a smaller δ, the release costs less at the budget's
 * δ (where the ledger composes) and may fit, so only the ledger's reservation decides.
 */
import { describe, expect, it } from 'vitest';
import { refuseAboveCap } from '../../../../electron/services/sizes/poolSizes';

const budget = { cap: 2, delta: 1e-5 };

describe('refuseAboveCap', () => {
  it('refuses ε above the cap at the budget δ, or δ omitted, or a larger δ', () => {
    expect(() => refuseAboveCap({ epsilon: 3 }, budget)).toThrow(/ε = 3 exceeds the budget cap of 2 on its own/);
    expect(() => refuseAboveCap({ epsilon: 3, delta: 1e-5 }, budget)).toThrow(/on its own/);
    expect(() => refuseAboveCap({ epsilon: 3, delta: 1e-4 }, budget)).toThrow(/on its own/);
  });

  it('leaves a request at a smaller δ to the ledger, and anything without a budget', () => {
    expect(() => refuseAboveCap({ epsilon: 3, delta: 1e-10 }, budget)).not.toThrow();
    expect(() => refuseAboveCap({ epsilon: 3 }, null)).not.toThrow();
  });

  it('lets ε within 1 % above the cap through (the calibration meets ε within 0.1 %)', () => {
    expect(() => refuseAboveCap({ epsilon: 2.02 }, budget)).not.toThrow();
  });
});
