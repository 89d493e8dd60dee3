/**
 * The private part of one token step: from the M teachers' probability vectors over the
 * public candidates, choose one candidate. Each method states the event one step charges
 * on a pool sampled at rate q — the maximum it may spend, whatever it actually ran.
 */
import type { PrivacyEvent } from '../accounting/events';
import type { RandomSource } from '../random/randomSource';

export interface TokenAggregator {
  readonly method: 'dp-few-shot' | 'adadpsyn';
  /** Index of the released candidate. */
  choose(vectors: readonly Float64Array[], random: RandomSource): number;
  /** The event of one step on a pool Poisson-sampled at rate q. */
  stepEvent(q: number): PrivacyEvent;
}
