/**
 * Synthetic prompt or private answering? A DP synthetic prompt is paid once and reused
 * forever (post-processing); private answering pays for every query. At the same noise
 * per step — the same σ multiplier for Gaussian aggregation, the same ε per step for the
 * exponential-type mechanisms — the break-even is the smallest number of queries Q* whose
 * composed ε exceeds the prompt's ε. Beyond Q* the prompt is the cheaper release.
 *
 * ε grows with the number of compositions, so the predicate is monotone: exponential then
 * binary search, as for the ledger's "N more releases".
 */
import type { PrivacyEvent } from '../accounting/events';

/** ε upper bound of `event` composed `count` times (at the plan's δ). */
export type ComposedEpsilon = (event: PrivacyEvent, count: number) => number;

export const BREAK_EVEN_LIMIT = 1_000_000;

/** Smallest Q with ε(query^Q) > synthEpsilon, or null when even BREAK_EVEN_LIMIT queries cost less. */
export function breakEvenQueries(query: PrivacyEvent, synthEpsilon: number, epsilonOf: ComposedEpsilon): number | null {
  const exceeds = (q: number) => epsilonOf(query, q) > synthEpsilon;
  if (exceeds(1)) return 1;
  let lo = 1; // does not exceed
  let hi = 2;
  while (!exceeds(hi)) {
    if (hi >= BREAK_EVEN_LIMIT) return null;
    [lo, hi] = [hi, Math.min(2 * hi, BREAK_EVEN_LIMIT)];
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (exceeds(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** About `points` query counts from 1 to `max`, log-spaced, distinct, always including 1 and max. */
export function queryGrid(max: number, points = 16): number[] {
  if (!(max >= 1)) throw new RangeError('queryGrid: max must be ≥ 1');
  const grid = new Set<number>([1, Math.round(max)]);
  for (let i = 1; i < points - 1; i++) grid.add(Math.round(Math.exp((Math.log(max) * i) / (points - 1))));
  return [...grid].sort((a, b) => a - b);
}
