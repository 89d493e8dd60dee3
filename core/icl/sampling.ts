/**
 * What one demonstration costs in each sampling mode (SynthesisShape.sampling).
 *
 * Per token: every step draws a fresh Poisson sample, so a demonstration of T charged
 * steps is Composed(PoissonSampled(q, step), T).
 *
 * Per demonstration: ONE Poisson sample S (rate q) and one assignment of its units to the
 * M teachers serve all T steps (both phases of a generation task). Given S, the T steps are
 * an adaptive composition of the step mechanism on the same data: step t sees the released
 * tokens y<t (public) and the teachers built from S. Adding/removing one unit changes one
 * teacher for every step, so each step keeps its sensitivity and A(S) = (step₁ … step_T) is
 * dominated by Composed(step, T) — for Gaussian steps exactly a Gaussian of precision
 * T·(Δ/σ)², i.e. σ/√T (Dong, Roth & Su 2022, GDP composition: adaptive = non-adaptive for
 * Gaussians). The released demonstration is A applied to a Poisson sample, so its event is
 * PoissonSampled(q, Composed(step, T)) under add/remove (Zhu, Dong & Wang 2022, Thm. on
 * Poisson subsampling of a dominating pair); the sample is drawn afresh for every
 * demonstration, so demonstrations compose: Composed(PoissonSampled(q, Composed(step, T)), D).
 *
 * ε-DP steps (report-noisy-max with exponential noise): T of them on the same sample are
 * Tε-DP (basic composition), and PureDp(Tε) dominates every Tε-DP mechanism, so the
 * inner event is charged as PureDp(T·ε) — a sound upper bound the PLD accountant takes
 * (Composed(PureDp) inside a Poisson sampler it does not).
 */
import { composed, poissonSampled, pureDp, type PrivacyEvent } from '../accounting/events';
import type { SamplingMode } from './demonstration';
import type { TokenAggregator } from './tokenAggregator';

/** T mechanisms of `step` run on one sample, as one event. */
function composedOnSample(step: PrivacyEvent, steps: number): PrivacyEvent {
  return step.kind === 'pure' ? pureDp(step.epsilon * steps) : composed(step, steps);
}

/** The unsampled mechanism of one step: the aggregator's step event at rate q, unwrapped. */
function stepMechanism(aggregator: TokenAggregator, q: number): PrivacyEvent {
  const event = aggregator.stepEvent(q);
  if (event.kind !== 'poisson-sampled') throw new Error('a token step must be a Poisson-sampled event');
  return event.event;
}

/** The event of `demonstrations` demonstrations of `steps` charged token steps each, on a pool sampled at rate q. */
export function demonstrationsEvent(aggregator: TokenAggregator, q: number, steps: number, demonstrations: number, mode: SamplingMode = 'per-token'): PrivacyEvent {
  if (mode === 'per-token') return composed(aggregator.stepEvent(q), steps * demonstrations);
  return composed(poissonSampled(q, composedOnSample(stepMechanism(aggregator, q), steps)), demonstrations);
}
