/**
 * The common accounting case as the CLI states it: T steps of one mechanism, each run on a
 * fresh Poisson(q) sample of the units (q = 1: no sampling), add/remove neighbouring.
 * One noise parameter p describes the step: the Gaussian noise standard deviation σ, the
 * Laplace scale b, or the ε of an ε-DP step — what calibration solves for.
 */
import { composed, gaussian, laplace, poissonSampled, pureDp, type PrivacyEvent } from './events';

export const STEP_MECHANISMS = ['gaussian', 'laplace', 'pure'] as const;
export type StepMechanism = (typeof STEP_MECHANISMS)[number];

export interface StepsSpec {
  mechanism: StepMechanism;
  /** ℓ2 (Gaussian) or ℓ1 (Laplace) sensitivity under add/remove one unit; unused for ε-DP steps. */
  sensitivity: number;
  /** Poisson sampling rate per step, in (0, 1]. */
  q: number;
  steps: number;
}

/** The event charged for the spec at noise parameter p. */
export function stepsEvent(spec: StepsSpec, p: number): PrivacyEvent {
  const step =
    spec.mechanism === 'gaussian' ? gaussian(p, spec.sensitivity) : spec.mechanism === 'laplace' ? laplace(p, spec.sensitivity) : pureDp(p);
  return composed(spec.q === 1 ? step : poissonSampled(spec.q, step), spec.steps);
}

/** Whether ε falls as the noise parameter grows (σ, b) rather than rises (ε per step). */
export const noiseDecreasing = (mechanism: StepMechanism): boolean => mechanism !== 'pure';
