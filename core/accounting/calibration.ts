/**
 * Noise calibration: the noise parameter of an event family that meets a target (ε, δ),
 * by bracketing and then interpolation-guided bisection to an explicit relative tolerance.
 * The returned parameter is always one whose certified upper-bound ε was evaluated and is
 * ≤ the target (never an interpolated guess), so calibration never overspends.
 */
import type { Accountant, Bounds } from './accountant';
import type { PrivacyEvent } from './events';
import { accountEpsilon } from './index';
import { pldAccountant } from './pld';
import { stepsEvent } from './steps';

export class CalibrationError extends Error {
  override name = 'CalibrationError';
}

export interface CalibrateOptions {
  /** The event charged at noise parameter p > 0. */
  family: (parameter: number) => PrivacyEvent;
  target: { epsilon: number; delta: number };
  /** ε bounds come from this accountant (default: the facade, PLD with RDP fallback). */
  accountant?: Accountant;
  /** Initial bracket [lo, hi], 0 < lo < hi (default: grown from 1 by doubling / halving). */
  bracket?: [number, number];
  /** Stop when hi/lo − 1 ≤ tolerance (relative; default 1e-3). */
  tolerance?: number;
  /** true when ε falls as the parameter grows (a noise scale σ); false when it rises (an ε per step). */
  decreasing: boolean;
}

export interface Calibration {
  parameter: number;
  /** The accountant's ε bounds at `parameter` (upper ≤ target.epsilon). */
  epsilon: Bounds;
  /** Accountant calls made. */
  evaluations: number;
}

/** How far (factor 2 per step) the bracket may grow from its start before the target is declared unreachable. */
const MAX_DOUBLINGS = 80;

export function calibrate(options: CalibrateOptions): Calibration {
  const { family, target, decreasing } = options;
  const tolerance = options.tolerance ?? 1e-3;
  if (!(target.epsilon >= 0) || !Number.isFinite(target.epsilon)) throw new RangeError(`calibrate: target ε must be finite and ≥ 0, got ${target.epsilon}`);
  if (!(target.delta > 0 && target.delta < 1)) throw new RangeError(`calibrate: target δ must be in (0, 1), got ${target.delta}`);
  if (!(tolerance > 0 && tolerance < 1)) throw new RangeError(`calibrate: tolerance must be in (0, 1), got ${tolerance}`);
  const account = options.accountant
    ? (event: PrivacyEvent) => options.accountant!.epsilon(event, target.delta)
    : (event: PrivacyEvent) => accountEpsilon(event, target.delta, { crossCheck: false }).bounds;

  const seen = new Map<number, Bounds>();
  const bounds = (p: number): Bounds => {
    let b = seen.get(p);
    if (!b) seen.set(p, (b = account(family(p))));
    return b;
  };
  const meets = (p: number): boolean => bounds(p).upper <= target.epsilon;
  const unreachable = (detail: string): CalibrationError =>
    new CalibrationError(`no noise parameter meets ε ≤ ${target.epsilon} at δ = ${target.delta}: ${detail}`);

  // Bracket [near, far]: `near` fails the target, `far` meets it (far > near when decreasing).
  let near: number;
  let far: number;
  if (options.bracket) {
    const [lo, hi] = options.bracket;
    if (!(lo > 0 && hi > lo && Number.isFinite(hi))) throw new RangeError(`calibrate: bracket must satisfy 0 < lo < hi, got [${lo}, ${hi}]`);
    [near, far] = decreasing ? [lo, hi] : [hi, lo];
    if (meets(near)) return result(near);
    if (!meets(far)) throw unreachable(`even ${far} gives ε ≤ ${bounds(far).upper} (upper bound)`);
  } else {
    const step = decreasing ? 2 : 0.5;
    far = 1;
    let grown = 0;
    while (!meets(far)) {
      far *= step;
      if (++grown > MAX_DOUBLINGS) throw unreachable(`ε is still ${bounds(far / step).upper} at parameter ${far / step}`);
    }
    near = far / step;
    grown = 0;
    while (meets(near)) {
      far = near;
      near /= step;
      if (++grown > MAX_DOUBLINGS) return result(far);
    }
  }

  // Regula falsi (Illinois) on (log p, log ε_upper), kept inside the bracket, else bisection.
  const gap = (p: number): number => Math.log(bounds(p).upper / target.epsilon);
  let [gNear, gFar] = [gap(near), gap(far)];
  let side = 0;
  while (Math.max(near, far) / Math.min(near, far) - 1 > tolerance) {
    const [a, b] = [Math.log(near), Math.log(far)];
    let x = Number.isFinite(gNear) && Number.isFinite(gFar) && gNear !== gFar ? a + (gNear * (b - a)) / (gNear - gFar) : (a + b) / 2;
    const margin = 0.05 * Math.abs(b - a);
    x = Math.min(Math.max(a, b) - margin, Math.max(Math.min(a, b) + margin, x));
    const p = Math.exp(x);
    if (meets(p)) {
      far = p;
      gFar = gap(p);
      if (side === 1) gNear /= 2;
      side = 1;
    } else {
      near = p;
      gNear = gap(p);
      if (side === -1) gFar /= 2;
      side = -1;
    }
  }
  return result(far);

  function result(parameter: number): Calibration {
    return { parameter, epsilon: bounds(parameter), evaluations: seen.size };
  }
}

export interface GaussianCalibrationOptions {
  /** Poisson sampling rate per step (1: no subsampling). */
  q: number;
  steps: number;
  epsilon: number;
  delta: number;
  /** ℓ2 sensitivity Δ (add/remove one unit); default 1. */
  sensitivity?: number;
  tolerance?: number;
}

/**
 * The smallest noise multiplier z (noise standard deviation z·Δ) such that `steps`
 * Poisson-subsampled Gaussian mechanisms are (ε, δ)-DP by the PLD accountant's upper bound.
 */
export function calibrateGaussianSigma(options: GaussianCalibrationOptions): { sigma: number; epsilon: Bounds } {
  const { q, steps, epsilon, delta } = options;
  const sensitivity = options.sensitivity ?? 1;
  if (!(q > 0 && q <= 1)) throw new RangeError(`calibrateGaussianSigma: q must be in (0, 1], got ${q}`);
  if (!(Number.isInteger(steps) && steps > 0)) throw new RangeError(`calibrateGaussianSigma: steps must be a positive integer, got ${steps}`);
  if (!(epsilon > 0)) throw new CalibrationError(`no noise multiplier gives ε ≤ ${epsilon}: the Gaussian mechanism has ε > 0 at every δ < 1`);
  const family = (z: number): PrivacyEvent => stepsEvent({ mechanism: 'gaussian', sensitivity, q, steps }, z * sensitivity);
  const { parameter, epsilon: bounds } = calibrate({ family, target: { epsilon, delta }, accountant: pldAccountant, tolerance: options.tolerance, decreasing: true });
  return { sigma: parameter, epsilon: bounds };
}
