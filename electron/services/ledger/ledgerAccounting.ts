/**
 * Accounting of a whole ledger: compose every reserved (committed or not) event and ask
 * the accountant facade for ε at the dataset's δ — PLD with its bounds, RDP beside it as
 * a cross-check — plus the ε(δ) curve for charts.
 *
 * Composition: the privacy-loss distribution of an adaptive composition is the
 * convolution of the per-release PLDs (Sommer, Meiser & Mohammadi 2019, Thm 1; computed
 * by FFT, Koskela, Jälkö & Honkela 2020), and RDP curves add order by order (Mironov
 * 2017, Prop. 1). Both are commutative, so identical events may be grouped into one
 * k-fold composition first: exact, and far cheaper than k separate factors.
 * Pure (no node:* imports) so that the planner may run it in a worker.
 */
import { accountEpsilon } from '../../../core/accounting';
import type { Bounds } from '../../../core/accounting/accountant';
import { composed, sequence, type Neighbouring, type PrivacyEvent } from '../../../core/accounting/events';
import { canonicalJson } from '../../../core/export/canonicalJson';
import { RelationMismatchError } from './errors';

/** An event charged `count` times. */
export interface Charge {
  event: PrivacyEvent;
  count: number;
}

export interface SpendAccount {
  accountant: 'pld' | 'rdp';
  /** ε at δ with the primary accountant's lower / estimate / upper bounds. */
  epsilon: Bounds;
  /** The RDP accountant's ε at the same δ (a cross-check), when it can take the events. */
  rdp: Bounds | null;
}

const ZERO: Bounds = { lower: 0, estimate: 0, upper: 0 };
export const NOTHING_SPENT: SpendAccount = { accountant: 'pld', epsilon: ZERO, rdp: ZERO };

/** The distinct neighbouring relations the events are stated under. */
export const relationsOf = (events: readonly PrivacyEvent[]): Neighbouring[] => [...new Set(events.map((e) => e.neighbouring))].sort();

/** One event equivalent to every charge (identical events grouped), or null for none. */
export function composeCharges(charges: readonly Charge[]): PrivacyEvent | null {
  const groups = new Map<string, Charge>();
  for (const { event, count } of charges) {
    if (count <= 0) continue;
    const key = canonicalJson(event);
    const group = groups.get(key);
    if (group) group.count += count;
    else groups.set(key, { event, count });
  }
  const parts = [...groups.values()].map((g) => (g.count === 1 ? g.event : composed(g.event, g.count)));
  if (parts.length === 0) return null;
  const relations = relationsOf(parts);
  if (relations.length > 1) throw new RelationMismatchError(relations);
  return parts.length === 1 ? parts[0] : sequence(parts);
}

/** ε (with the RDP cross-check) of `charges` composed, at `delta`. */
function accountCharges(charges: readonly Charge[], delta: number): SpendAccount {
  const event = composeCharges(charges);
  if (!event) return NOTHING_SPENT;
  const result = accountEpsilon(event, delta);
  return {
    accountant: result.accountant,
    epsilon: result.bounds,
    rdp: result.rdp ?? (result.accountant === 'rdp' ? result.bounds : null),
  };
}

/** Each event charged once. */
export const chargeEach = (events: readonly PrivacyEvent[]): Charge[] => events.map((event) => ({ event, count: 1 }));

/** ε (with the RDP cross-check) of the composition of `events`, at `delta`. */
export function accountSpend(events: readonly PrivacyEvent[], delta: number): SpendAccount {
  return accountCharges(chargeEach(events), delta);
}

/** ε upper bound of `charges` composed, at `delta` (0 for nothing). */
export function composedEpsilonUpper(charges: readonly Charge[], delta: number): number {
  return accountCharges(charges, delta).epsilon.upper;
}

/**
 * The ε upper bound after one more release, never below `spentUpper`: both are upper bounds
 * computed on their own discretisations, and a tiny release can come out a hair under the
 * spend (7.975 after 7.976). The true ε after is at least the true spend, so the larger of the
 * two bounds is still an upper bound, and the budget never reads as if a release gave ε back.
 */
export function spendAfter(spent: readonly PrivacyEvent[], event: PrivacyEvent, delta: number, spentUpper: number): number {
  return Math.max(composedEpsilonUpper(chargeEach([...spent, event]), delta), spentUpper);
}

export interface CurvePoint {
  delta: number;
  epsilon: number;
}

/** δ of the curve's points: the dataset's δ times 10^k, k = −4 … 1, kept below 1. */
export function curveDeltas(delta: number): number[] {
  return [-4, -3, -2, -1, 0, 1].map((k) => delta * 10 ** k).filter((d) => d > 0 && d < 1);
}

/** The ε(δ) curve (upper bounds) of the composition of `events`. */
export function epsilonCurve(events: readonly PrivacyEvent[], delta: number): CurvePoint[] {
  return curveDeltas(delta).map((d) => ({ delta: d, epsilon: composedEpsilonUpper(chargeEach(events), d) }));
}
