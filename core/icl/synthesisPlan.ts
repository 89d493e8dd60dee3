/**
 * What a synthesis job releases and what it costs.
 *
 * Demonstrations are spread over the PUBLIC label set (round-robin, so a 4-shot prompt for
 * two labels has two of each); generation tasks have one pool, the whole private split.
 * Each label's demonstrations are generated from that label's private pool: T_max token
 * steps per demonstration (2·T_max for generation tasks: input, then output), all charged
 * (Composed(step, steps · demonstrations)).
 *
 * Across pools: with records as the privacy unit the label pools are disjoint, so one
 * unit touches one pool and the job is charged one event dominating every pool's (parallel
 * composition; see jobEvent). With subjects as the unit a subject may have records under several labels, so the
 * pools compose sequentially (Sequence of every pool's event).
 */
import { composed, sequence, type PrivacyEvent } from '../accounting/events';
import { samplingRate, stepsPerDemonstration, type SynthesisShape } from './demonstration';
import { demonstrationsEvent } from './sampling';
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

/** Generation tasks have one label-less pool, and their demonstrations also get an output. */
export const writesOutput = (pool: Pick<PoolPlan, 'label'>): boolean => pool.label === undefined;

/** Token steps charged for a pool: every demonstration's maximum, whatever it used. */
export const poolSteps = (pool: PoolPlan, shape: SynthesisShape): number => stepsPerDemonstration(shape, writesOutput(pool)) * pool.demonstrations;

/** A pool's event: its demonstrations' steps, sampled per token or per demonstration (sampling.ts). */
export function poolEvent(pool: PoolPlan, shape: SynthesisShape, aggregator: TokenAggregator): PrivacyEvent {
  const steps = stepsPerDemonstration(shape, writesOutput(pool));
  return demonstrationsEvent(aggregator, samplingRate(shape, pool.units), steps, pool.demonstrations, shape.sampling);
}

export type PrivacyUnit = 'record' | 'subject';

/**
 * The event the ledger is charged for the whole job.
 *
 * Records as the unit (disjoint pools): one unit's presence changes one pool's output only,
 * but the ledger composes the job with other releases, so it needs ONE event that dominates
 * every pool's — the worst pool at the job's δ is not enough, as privacy curves cross. The
 * step with the largest sampling rate, repeated as often as the pool with the most steps,
 * dominates each pool's event. The step events depend on q only, and with the dominating
 * pair (P_q, Q), P_q = (1−q)·Q + q·P, the kernel "keep the output w.p. q'/q, else draw from
 * Q" maps P_q to P_q' and Q to Q (in both directions): rate q' ≤ q is post-processing of
 * rate q; fewer compositions are post-processing of more (drop outputs). So the charged
 * event's privacy-loss distribution dominates each pool's and composing it is sound (Zhu,
 * Dong & Wang 2022, dominating pairs). Sampled per demonstration, the same holds with
 * demonstrations in place of steps (every pool's demonstrations have the same number of
 * steps: only a generation task's single pool writes outputs). Subjects as the unit: pools
 * compose sequentially.
 */
export function jobEvent(pools: readonly PoolPlan[], shape: SynthesisShape, aggregator: TokenAggregator, unit: PrivacyUnit): PrivacyEvent {
  if (pools.length === 0) throw new Error('nothing to generate');
  if (unit === 'subject') {
    const events = pools.map((p) => poolEvent(p, shape, aggregator));
    return events.length === 1 ? events[0] : sequence(events);
  }
  const q = Math.max(...pools.map((p) => samplingRate(shape, p.units)));
  if (shape.sampling === 'per-demonstration') {
    const steps = Math.max(...pools.map((p) => stepsPerDemonstration(shape, writesOutput(p))));
    return demonstrationsEvent(aggregator, q, steps, Math.max(...pools.map((p) => p.demonstrations)), 'per-demonstration');
  }
  const steps = Math.max(...pools.map((p) => poolSteps(p, shape)));
  return composed(aggregator.stepEvent(q), steps);
}
