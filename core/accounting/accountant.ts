/**
 * The accountant contract: every answer is a bound triple, never a bare float.
 * `upper` is an upper bound (pessimistic discretisation / exact RDP conversion; PLD's is
 * proven up to the estimated float64 rounding of its FFT, pld/compose.ts);
 * `lower` a lower bound where the method gives one (RDP gives none: lower = 0), same caveat;
 * `estimate` the best point estimate.
 */
import type { PrivacyEvent } from './events';

export interface Bounds {
  lower: number;
  estimate: number;
  upper: number;
}

export type AccountantName = 'pld' | 'rdp';

export interface Accountant {
  readonly name: AccountantName;
  /** ε such that the event is (ε, δ)-DP, with bounds. */
  epsilon(event: PrivacyEvent, delta: number): Bounds;
  /** δ such that the event is (ε, δ)-DP, with bounds. */
  delta(event: PrivacyEvent, epsilon: number): Bounds;
}
