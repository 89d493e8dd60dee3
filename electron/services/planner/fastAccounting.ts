/**
 * Accounting fast enough for interactive planning.
 *
 * `searchEpsilon`: a certified PLD upper bound refined only to 1 % (RDP for events PLD
 * cannot take) — for searches and curves that ask dozens of times per recompute; a looser
 * certified bound can only make a count smaller, never overspend.
 *
 * `calibrateTwoStage`: calibration to the full precision of the default accountant, but
 * started from a bracket found with the 1 % accountant, so the expensive evaluations are
 * few. The result is still a parameter whose default-accountant upper bound was evaluated
 * and meets the target (core/accounting/calibration.ts); if the coarse bracket is off, it
 * falls back to the plain search. Synthesis jobs and the planner both use it, so a plan
 * prices exactly what a job charges.
 */
import { tryRdp, UnsupportedByPldError, withRdpUpper, type Bounds } from '../../../core/accounting';
import type { Accountant } from '../../../core/accounting/accountant';
import { calibrate, CalibrationError, type CalibrateOptions } from '../../../core/accounting/calibration';
import type { PrivacyEvent } from '../../../core/accounting/events';
import { createPldAccountant } from '../../../core/accounting/pld';
import { rdpAccountant } from '../../../core/accounting/rdp';

const coarsePld = createPldAccountant({ relativeGap: 1e-2 });

function fallback<T>(pld: () => T, rdp: () => T): T {
  try {
    return pld();
  } catch (error) {
    if (!(error instanceof UnsupportedByPldError)) throw error;
    return rdp();
  }
}

/** PLD's bounds, with RDP's finite upper bound where PLD's is infinite (δ below its slack; core/accounting/index.ts). */
function boundedEpsilon(event: PrivacyEvent, delta: number): Bounds {
  const pld = coarsePld.epsilon(event, delta);
  if (pld.upper < Infinity) return pld;
  return withRdpUpper(pld, tryRdp(() => rdpAccountant.epsilon(event, delta))) ?? pld;
}

/** The 1 % accountant: PLD (RDP's upper bound where PLD's is infinite), RDP for events PLD cannot take. */
export const searchAccountant: Accountant = {
  name: 'pld',
  epsilon: (event, delta) => fallback(() => boundedEpsilon(event, delta), () => rdpAccountant.epsilon(event, delta)),
  delta: (event, epsilon) => fallback(() => coarsePld.delta(event, epsilon), () => rdpAccountant.delta(event, epsilon)),
};

export const searchEpsilon = (event: PrivacyEvent, delta: number): number => searchAccountant.epsilon(event, delta).upper;

/** Width of the fine bracket around the coarse answer (the 1 % accountant is within ~1 % in ε). */
const BRACKET = 1.05;

export function calibrateTwoStage(options: Omit<CalibrateOptions, 'accountant' | 'bracket'>): number {
  const coarse = calibrate({ ...options, accountant: searchAccountant, tolerance: 1e-2 }).parameter;
  try {
    return calibrate({ ...options, bracket: [coarse / BRACKET, coarse * BRACKET] }).parameter;
  } catch (error) {
    if (!(error instanceof CalibrationError)) throw error;
    return calibrate(options).parameter;
  }
}
