/** What is left: counted by the accountant, or settled at the limit by RDP's certified bound in one conversion. */
import { describe, expect, it } from 'vitest';
import { gaussian, poissonSampled, pureDp, type PrivacyEvent } from '../../../../core/accounting/events';
import { accountEpsilon } from '../../../../core/accounting';
import { chargeEach, composedEpsilonUpper } from '../../../../electron/services/ledger/ledgerAccounting';
import { rdpAdmits, remainingCount } from '../../../../electron/services/ledger/remaining';

const counting = () => {
  const asked: PrivacyEvent[] = [];
  return { asked, epsilonOf: (event: PrivacyEvent, delta: number) => (asked.push(event), accountEpsilon(event, delta, { crossCheck: false }).bounds.upper) };
};

describe('remainingCount', () => {
  it('answers "at least the limit" from RDP alone when RDP admits that many', () => {
    const spent = [gaussian(20)];
    const event = poissonSampled(0.001, gaussian(50));
    expect(rdpAdmits(spent, event, 1_000_000, 10, 1e-6)).toBe(true);
    const { asked, epsilonOf } = counting();
    expect(remainingCount({ spent, event, cap: 10, delta: 1e-6, epsilonOf })).toEqual({ count: 1_000_000, atLimit: true });
    expect(asked).toHaveLength(1); // only what is already spent: no composition of a million copies
  });

  it('counts with the accountant where RDP cannot settle it (Poisson-sampled pure DP), and the count fits exactly', () => {
    const spent = [pureDp(0.5)];
    const event = poissonSampled(0.01, pureDp(1));
    expect(rdpAdmits(spent, event, 1_000_000, 3, 1e-6)).toBe(false);
    const { count, atLimit } = remainingCount({ spent, event, cap: 3, delta: 1e-6 });
    expect(atLimit).toBe(false);
    const at = (n: number) => composedEpsilonUpper([...chargeEach(spent), { event, count: n }], 1e-6);
    expect(at(count)).toBeLessThanOrEqual(3);
    expect(at(count + 1)).toBeGreaterThan(3);
  });
});
