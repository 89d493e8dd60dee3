/**
 * What a synthesis job releases and what it costs.
 *
 * Demonstrations are spread over the PUBLIC label set (round-robin, so a 4-shot prompt for
 * two labels has two of each); generation tasks have one pool, the whole private split.
 * Each label's demonstrations are generated from that label's private pool: T_max token
 * steps per demonstration, all charged (Composed(step, T_max · demonstrations)).
 *
 * Across pools: with records as the privacy unit the label pools are disjoint, so one
 * unit touches one pool and the job costs the worst pool's event (parallel composition).
 * With subjects as the unit a subject may have records under several labels, so the
 * pools compose sequentially (Sequence of every pool's event).
 */
import { composed, sequence, type PrivacyEvent } from '../accounting/events';
import { samplingRate, type SynthesisShape } from './demonstration';
import type { TokenAggregator } from './tokenAggregator';

export interface PoolPlan {
  /** The public label (absent for generation tasks). */
  label?: string;
  /** Privacy units in this pool. */
  units: number;
  demonstrations: number;
}

/** Assign `shots` demonstrations round-robin over the public labels. */
export function spreadShots(shots: number, labels: readonly string[] | undefined): { label?: string; demonstrations: number }[] {
  if (!Number.isInteger(shots) || shots < 1) throw new Error('shots must be a positive integer');
  if (!labels || labels.length === 0) return [{ demonstrations: shots }];
  return labels
    .map((label, i) => ({ label, demonstrations: Math.floor(shots / labels.length) + (i < shots % labels.length ? 1 : 0) }))
    .filter((p) => p.demonstrations > 0);
}

export function poolEvent(pool: PoolPlan, shape: SynthesisShape, aggregator: TokenAggregator): PrivacyEvent {
  return composed(aggregator.stepEvent(samplingRate(shape, pool.units)), shape.maxTokens * pool.demonstrations);
}

export type PrivacyUnit = 'record' | 'subject';

/**
 * The event the ledger is charged for the whole job. `epsilonOf` (the accountant's upper
 * bound at the job's δ) picks the worst pool under parallel composition.
 */
export function jobEvent(
  pools: readonly PoolPlan[],
  shape: SynthesisShape,
  aggregator: TokenAggregator,
  unit: PrivacyUnit,
  epsilonOf: (event: PrivacyEvent) => number,
): PrivacyEvent {
  if (pools.length === 0) throw new Error('nothing to generate');
  const events = pools.map((p) => poolEvent(p, shape, aggregator));
  if (unit === 'subject') return events.length === 1 ? events[0] : sequence(events);
  let worst = 0;
  let worstEpsilon = -Infinity;
  events.forEach((event, i) => {
    const epsilon = epsilonOf(event);
    if (epsilon > worstEpsilon) [worst, worstEpsilon] = [i, epsilon];
  });
  return events[worst];
}
