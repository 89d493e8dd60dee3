/**
 * Synthetic prompt or private answering? A DP synthetic prompt is paid once and reused
 * forever (post-processing); private answering pays for every query. At the same noise
 * per step — the same σ multiplier for Gaussian aggregation, the same ε per step for the
 * exponential-type mechanisms — the break-even is the smallest number of queries Q* whose
 * composed ε exceeds the prompt's ε. Beyond Q* the prompt is the cheaper release.
 *
 * ε grows with the number of compositions, so the predicate is monotone: the same count search
 * as the ledger's "N more releases" (core/math/countSearch.ts).
 */
import type { PrivacyEvent } from '../accounting/events';
import { largestWithinCap } from '../math/countSearch';

/** ε upper bound of `event` composed `count` times (at the plan's δ). */
export type ComposedEpsilon = (event: PrivacyEvent, count: number) => number;

export const BREAK_EVEN_LIMIT = 1_000_000;

/**
 * Smallest Q with ε(query^Q) > synthEpsilon, or null when even BREAK_EVEN_LIMIT queries cost
 * less. `reach`: a count whose ε is cheap once Q's is known (largestWithinCap).
 */
export function breakEvenQueries(query: PrivacyEvent, synthEpsilon: number, epsilonOf: ComposedEpsilon, reach?: (count: number) => number): number | null {
  const one = epsilonOf(query, 1);
  if (!(one <= synthEpsilon)) return 1;
  const { count, atLimit } = largestWithinCap({ value: (q) => epsilonOf(query, q), cap: synthEpsilon, from: { n: 1, value: one }, limit: BREAK_EVEN_LIMIT, reach });
  return atLimit ? null : count + 1;
}

/** About `points` query counts from 1 to `max`, log-spaced, distinct, always including 1 and max. */
export function queryGrid(max: number, points = 16): number[] {
  if (!(max >= 1)) throw new RangeError('queryGrid: max must be ≥ 1');
  const grid = new Set<number>([1, Math.round(max)]);
  for (let i = 1; i < points - 1; i++) grid.add(Math.round(Math.exp((Math.log(max) * i) / (points - 1))));
  return [...grid].sort((a, b) => a - b);
}
