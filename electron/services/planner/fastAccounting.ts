/**
 * Accounting fast enough for interactive planning.
 *
 * `searchEpsilon`: a certified PLD upper bound refined only to 1 % (RDP for events PLD
 * cannot take) — for searches and curves that ask dozens of times per recompute; a looser
 * certified bound can only make a count smaller, never overspend. (Curves and count searches
 * over one repeated event go through countedEpsilon.ts, which falls back to this.)
 *
 * `calibrateTwoStage`: calibration to the full precision of the default accountant with few
 * expensive evaluations — a guess from RDP, the 1 % accountant to 1 %, then the default
 * accountant to the tolerance, each stage predicting the crossing from the slope of log ε in
 * log p and probing either side of it (calibrateTwoStageDetailed). The result is still a
 * parameter whose default-accountant upper bound was evaluated and meets the target
 * (core/accounting/calibration.ts), and a deterministic function of the request: synthesis
 * jobs and the planner both use it, so a plan prices exactly what a job charges.
 */
import { accountEpsilon, tryRdp, UnsupportedByPldError, withRdpUpper, type AccountingResult, type Bounds } from '../../../core/accounting';
import type { Accountant } from '../../../core/accounting/accountant';
import { calibrate, CalibrationError, type CalibrateOptions } from '../../../core/accounting/calibration';
import type { PrivacyEvent } from '../../../core/accounting/events';
import { createPldAccountant } from '../../../core/accounting/pld';
import { createRdpAccountant, rdpAccountant } from '../../../core/accounting/rdp';
import { RdpUnsupportedEventError } from '../../../core/accounting/rdp/curve';

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
const searchAccountant: Accountant = {
  name: 'pld',
  epsilon: (event, delta) => fallback(() => boundedEpsilon(event, delta), () => rdpAccountant.epsilon(event, delta)),
  delta: (event, epsilon) => fallback(() => coarsePld.delta(event, epsilon), () => rdpAccountant.delta(event, epsilon)),
};

export const searchEpsilon = (event: PrivacyEvent, delta: number): number => searchAccountant.epsilon(event, delta).upper;

/**
 * A calibration: the parameter, and the default accountant's answer there (as
 * `accountEpsilon(…, { crossCheck: false })` gives it: the number the plan reports).
 */
export interface TwoStageCalibration {
  parameter: number;
  account: AccountingResult;
}

/** Relative tolerance of the coarse stage (the 1 % accountant cannot do better). */
const COARSE_TOLERANCE = 1e-2;
/** RDP's guess only needs to be near. */
const RDP_TOLERANCE = 2e-2;
/**
 * The guess's RDP orders: 24 of the default grid's 193 (ε at the best of them is within a
 * few % of the full grid's for the planner's events, and each evaluation is ~10× cheaper;
 * the integer orders' binomial sums are what an RDP evaluation costs).
 */
const GUESS_ORDERS = [1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 64, 128, 256];
const guessAccountant = createRdpAccountant(GUESS_ORDERS);
/** Probing rounds before falling back to the plain search. */
const MAX_PROBES = 12;
/** Largest move in log p of one probe (a factor 10⁴). */
const MAX_MOVE = Math.log(1e4);

export function calibrateTwoStage(options: Omit<CalibrateOptions, 'accountant' | 'bracket'>): number {
  return calibrateTwoStageDetailed(options).parameter;
}

type CalibrationInput = Omit<CalibrateOptions, 'accountant' | 'bracket'>;

/**
 * Calibration to the full precision of the default accountant, with few expensive calls:
 * a guess from the RDP accountant (cheap: a closed-form curve per order; skipped for events it
 * cannot take), then the 1 % accountant to 1 % from that guess, then the default accountant to
 * the requested tolerance from that answer. Each stage predicts where the target lies from
 * the local slope of log ε against log p (secant), probes just either side of it, and narrows
 * what is left by regula falsi (core/accounting/calibration.ts), remembering every evaluation.
 * The result is what `calibrate` guarantees: a parameter whose default-accountant upper bound
 * was evaluated and meets the target, within the tolerance of one that does not. It is a
 * deterministic function of the request, so a plan and the job it describes agree.
 */
export function calibrateTwoStageDetailed(options: CalibrationInput): TwoStageCalibration {
  const rough = calibrateCoarse(options);
  const fine = remembering((event) => accountEpsilon(event, options.target.delta, { crossCheck: false }));
  const { parameter } = calibrateFrom(options, fine.accountant, rough.parameter, options.tolerance ?? 1e-3, rough.slope);
  return { parameter, account: fine.result(options.family(parameter)) };
}

/**
 * The first stages alone: RDP's guess, then the 1 % accountant to 1 %. The parameter is
 * certified — the 1 % accountant's upper bound, itself a certified bound on ε, meets the
 * target — within 1 % of one where it does not; against the default accountant's calibration
 * it is on the safe side by up to ~2 % (the coarser bound's slack and the wider tolerance).
 * `slope` is d log ε / d log p measured there.
 */
export function calibrateCoarse(options: CalibrationInput): { parameter: number; slope: number } {
  const coarse = remembering((event) => searchAccountant.epsilon(event, options.target.delta));
  return calibrateFrom(options, coarse.accountant, rdpGuess(options) ?? 1, COARSE_TOLERANCE, options.decreasing ? -1 : 1);
}

/**
 * RDP's calibrated parameter, or null when RDP cannot take the family (or finds no parameter).
 * Discrete Gaussians are first read as continuous ones of the same σ and sensitivity: RDP
 * bounds a Poisson-sampled discrete Gaussian without amplification (rdp/curve.ts), which put
 * the private vote's guess ~40× too far (nine 1 % evaluations to come back instead of five).
 * That guess is kept where every discrete Gaussian has σ ≥ 1, where the two are within a few %;
 * below, where the discrete Gaussian's ε(σ) is not even monotone, the guess is RDP's own on
 * the family as it is (and the calibration finds the crossing it found before). Only the
 * starting point changes: the stages after it certify the result as before.
 */
function rdpGuess(options: CalibrationInput): number | null {
  const guess = (family: CalibrationInput['family']) => calibrate({ ...options, family, accountant: guessAccountant, tolerance: RDP_TOLERANCE }).parameter;
  try {
    const continuous = guess((p) => continuousGaussians(options.family(p)));
    return smallestDiscreteSigma(options.family(continuous)) >= 1 ? continuous : guess(options.family);
  } catch (error) {
    if (error instanceof RdpUnsupportedEventError || error instanceof CalibrationError) return null;
    throw error;
  }
}

/** `event` with every discrete Gaussian replaced by the continuous Gaussian of the same σ and sensitivity. */
function continuousGaussians(event: PrivacyEvent): PrivacyEvent {
  if (event.kind === 'discrete-gaussian') return { ...event, kind: 'gaussian' };
  if ('event' in event) return { ...event, event: continuousGaussians(event.event) };
  if ('events' in event) return { ...event, events: event.events.map(continuousGaussians) };
  return event;
}

/** The smallest σ of the discrete Gaussians in `event` (Infinity: none). */
function smallestDiscreteSigma(event: PrivacyEvent): number {
  if (event.kind === 'discrete-gaussian') return event.sigma;
  if ('event' in event) return smallestDiscreteSigma(event.event);
  if ('events' in event) return Math.min(Infinity, ...event.events.map(smallestDiscreteSigma));
  return Infinity;
}

/**
 * Calibrate from a guess. In u = ±log p, oriented so that ε grows with u, predict where
 * log ε reaches the target — by the secant through the nearest points on either side once
 * both exist, else along the slope (the previous stage's, then measured) — and evaluate just
 * either side of the prediction: the nearest point meeting the target and the nearest one
 * failing it close in, and a bracket within the tolerance ends the search (a wider one is
 * narrowed by `calibrate`). Moves grow at least geometrically, so a poor slope costs a few
 * evaluations, not a failure; with no bracket after MAX_PROBES it falls back to the plain search.
 */
function calibrateFrom(options: CalibrationInput, accountant: Accountant, guess: number, tolerance: number, slopeHint: number): { parameter: number; slope: number } {
  const { family, target, decreasing } = options;
  const orientation = decreasing ? -1 : 1; // u = orientation · log p
  const seen = new Map<number, number>();
  const logEpsilon = (u: number): number => {
    let e = seen.get(u);
    if (e === undefined) seen.set(u, (e = accountant.epsilon(family(Math.exp(orientation * u)), target.delta).upper));
    return Math.log(e);
  };
  const logTarget = Math.log(target.epsilon);
  const margin = 0.999 * Math.log1p(tolerance);
  const plausible = (slope: number) => Number.isFinite(slope) && slope > 0.05 && slope < 20;
  let slope = plausible(orientation * slopeHint) ? orientation * slopeHint : 1;
  let meet = -Infinity; // largest u evaluated that meets the target
  let fail = Infinity; // smallest u evaluated that fails it
  let last: number | null = null;
  const visit = (u: number): void => {
    const e = logEpsilon(u);
    if (e <= logTarget) meet = Math.max(meet, u);
    else fail = Math.min(fail, u);
    if (last !== null && u !== last) {
      const measured = (e - logEpsilon(last)) / (u - last);
      if (plausible(measured)) slope = measured;
    }
    last = u;
  };

  visit(orientation * Math.log(guess));
  for (let probe = 0; probe < MAX_PROBES && !(fail - meet <= margin); probe++) {
    if (Number.isFinite(meet) && Number.isFinite(fail)) {
      // Secant between the two sides, then a pair of points tolerance apart around it.
      const [a, b] = [logEpsilon(meet), logEpsilon(fail)];
      const predicted = Number.isFinite(a) && Number.isFinite(b) && b > a ? meet + ((logTarget - a) * (fail - meet)) / (b - a) : (meet + fail) / 2;
      for (const u of [predicted - margin / 2, predicted + margin / 2]) if (u - meet > margin / 8 && fail - u > margin / 8) visit(u);
      continue;
    }
    // One side only: along the slope to just past the target, at least a growing step.
    const from = Number.isFinite(meet) ? meet : fail;
    const side = Number.isFinite(meet) ? 1 : -1;
    const e = logEpsilon(from);
    const predicted = Number.isFinite(e) ? (logTarget - e) / slope : NaN;
    const move = Number.isFinite(predicted) && side * predicted > 0 ? Math.min(side * predicted + margin / 2, MAX_MOVE) : Math.LN2;
    visit(from + side * Math.max(move, margin * 2 ** probe));
  }
  if (!(Number.isFinite(meet) && Number.isFinite(fail))) return { parameter: calibrate({ ...options, accountant, tolerance }).parameter, slope: orientation * slope };
  const [lo, hi] = [meet, fail].map((u) => Math.exp(orientation * u)).sort((x, y) => x - y);
  return { parameter: calibrate({ ...options, accountant, tolerance, bracket: [lo, hi] }).parameter, slope: orientation * slope };
}

/** An accountant that answers each event once (keyed by its JSON), keeping the full results. */
function remembering(answer: (event: PrivacyEvent) => AccountingResult | Bounds): { accountant: Accountant; result: (event: PrivacyEvent) => AccountingResult } {
  const seen = new Map<string, AccountingResult>();
  const result = (event: PrivacyEvent): AccountingResult => {
    const key = JSON.stringify(event);
    let hit = seen.get(key);
    if (!hit) {
      const answered = answer(event);
      seen.set(key, (hit = 'bounds' in answered ? answered : { accountant: 'pld', bounds: answered }));
    }
    return hit;
  };
  return {
    result,
    accountant: {
      name: 'pld',
      epsilon: (event) => result(event).bounds,
      delta: () => {
        throw new Error('calibration asks for ε only');
      },
    },
  };
}

/** The facade's answer with its RDP cross-check (`accountEpsilon(event, δ)`), from the answer without it. */
export function withCrossCheck(event: PrivacyEvent, delta: number, account: AccountingResult): AccountingResult {
  if (account.accountant === 'rdp' || account.rdp) return account;
  const rdp = tryRdp(() => rdpAccountant.epsilon(event, delta));
  return rdp ? { ...account, rdp } : account;
}
