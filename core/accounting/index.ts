/**
 * The accounting facade: ε (or δ) of any privacy event with bounds (PLD's are proven up to
 * the estimated FFT rounding, pld/compose.ts; RDP's are proven). The PLD
 * accountant answers whenever it can take the event (tight, lower/estimate/upper); events
 * it cannot take (sampling without replacement, a discrete Gaussian over an ℓ2 norm, …), or
 * refuses once it sees losses beyond its float64 grid (GridRangeError, pld/discretise.ts), go to
 * the RDP accountant (upper bound only). Poisson sampling under replace-one is taken by neither
 * and refused. Unless `crossCheck` is false, the RDP answer is
 * reported beside a PLD answer when RDP can take the event too.
 *
 * PLD's upper ε carries an absolute δ slack (estimated FFT rounding and truncated tails,
 * ~1e-13 to 1e-12): at a δ below it the PLD upper bound is infinite. RDP's upper bound is
 * then the finite certified one, and the answer is RDP's upper with PLD's lower bound.
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
function chooseAccountant(event: PrivacyEvent): Accountant {
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
  // PLD may still refuse once it sees the losses (beyond its float64 grid): RDP then answers.
  const bounds = accountant === rdpAccountant ? null : tryPld(() => ask(accountant));
  if (!bounds) return { accountant: 'rdp', bounds: ask(rdpAccountant) };
  if (!crossCheck && bounds.upper < Infinity) return { accountant: 'pld', bounds };
  const rdp = tryRdp(() => ask(rdpAccountant));
  const bounded = withRdpUpper(bounds, rdp);
  if (bounded) return { accountant: 'rdp', bounds: bounded, rdp: rdp! };
  return rdp && crossCheck ? { accountant: 'pld', bounds, rdp } : { accountant: 'pld', bounds };
}

/** PLD's bounds with RDP's finite upper bound in place of an infinite one; null when that does not apply. */
export function withRdpUpper(pld: Bounds, rdp: Bounds | null): Bounds | null {
  return pld.upper === Infinity && rdp && rdp.upper < Infinity ? { lower: Math.min(pld.lower, rdp.upper), estimate: rdp.upper, upper: rdp.upper } : null;
}

/** The PLD answer, or null where PLD refuses the event. */
const tryPld = (ask: () => Bounds): Bounds | null => unlessRefused(ask, UnsupportedByPldError);

/** The RDP answer, or null for an event RDP cannot take. */
export const tryRdp = (ask: () => Bounds): Bounds | null => unlessRefused(ask, RdpUnsupportedEventError);

function unlessRefused(ask: () => Bounds, refusal: abstract new (...args: never[]) => Error): Bounds | null {
  try {
    return ask();
  } catch (error) {
    if (!(error instanceof refusal)) throw error;
    return null;
  }
}

export { pldAccountant, UnsupportedByPldError } from './pld';
export { rdpAccountant } from './rdp';
export type { Accountant, Bounds } from './accountant';
