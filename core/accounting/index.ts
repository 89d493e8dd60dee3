/**
 * The accounting facade: ε (or δ) of any privacy event with certified bounds. The PLD
 * accountant answers whenever it can take the event (tight, lower/estimate/upper); events
 * it cannot take (sampling without replacement, Poisson sampling under replace-one, …) go
 * to the RDP accountant (upper bound only). Unless `crossCheck` is false, the RDP answer is
 * reported beside a PLD answer when RDP can take the event too.
 */
import type { Accountant, AccountantName, Bounds } from './accountant';
import { privacyEventSchema, type PrivacyEvent } from './events';
import { pldAccountant, UnsupportedByPldError } from './pld';
import { planEvent } from './pld/plan';
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

/** The accountant the facade answers with: PLD when it can take the event, else RDP. */
export function chooseAccountant(event: PrivacyEvent): Accountant {
  try {
    planEvent(privacyEventSchema.parse(event));
    return pldAccountant;
  } catch (error) {
    if (error instanceof UnsupportedByPldError) return rdpAccountant;
    throw error;
  }
}

function account(event: PrivacyEvent, ask: (a: Accountant) => Bounds, { crossCheck = true }: AccountingOptions): AccountingResult {
  const accountant = chooseAccountant(event);
  const bounds = ask(accountant);
  if (accountant === rdpAccountant || !crossCheck) return { accountant: accountant.name, bounds };
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
