/**
 * The accounting facade: ε (or δ) of any privacy event with certified bounds. The PLD
 * accountant answers whenever it can take the event (tight, lower/estimate/upper); events
 * it cannot take (sampling without replacement, Poisson sampling under replace-one, …) go
 * to the RDP accountant (upper bound only). Unless `crossCheck` is false, the RDP answer is
 * reported beside a PLD answer when RDP can take the event too.
 */
import type { AccountantName, Bounds } from './accountant';
import type { PrivacyEvent } from './events';
import { pldAccountant, UnsupportedByPldError } from './pld';
import { rdpAccountant, RdpUnsupportedEventError } from './rdp';

export interface AccountingResult {
  accountant: AccountantName;
  bounds: Bounds;
  /** The RDP accountant's answer, as a cross-check of a PLD answer. */
  rdp?: Bounds;
}

export interface AccountingOptions {
  /** Also run the RDP accountant beside PLD (default true). */
  crossCheck?: boolean;
}

export function accountEpsilon(event: PrivacyEvent, delta: number, options: AccountingOptions = {}): AccountingResult {
  return account(event, (a) => a.epsilon(event, delta), options);
}

export function accountDelta(event: PrivacyEvent, epsilon: number, options: AccountingOptions = {}): AccountingResult {
  return account(event, (a) => a.delta(event, epsilon), options);
}

function account(event: PrivacyEvent, ask: (a: typeof pldAccountant) => Bounds, { crossCheck = true }: AccountingOptions): AccountingResult {
  let bounds: Bounds;
  try {
    bounds = ask(pldAccountant);
  } catch (error) {
    if (!(error instanceof UnsupportedByPldError)) throw error;
    return { accountant: 'rdp', bounds: ask(rdpAccountant) };
  }
  if (!crossCheck) return { accountant: 'pld', bounds };
  try {
    return { accountant: 'pld', bounds, rdp: ask(rdpAccountant) };
  } catch (error) {
    if (!(error instanceof RdpUnsupportedEventError)) throw error;
    return { accountant: 'pld', bounds };
  }
}

export { pldAccountant, UnsupportedByPldError } from './pld';
export { rdpAccountant } from './rdp';
export type { Accountant, Bounds } from './accountant';
