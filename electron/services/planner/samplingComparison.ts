/**
 * The planner's side-by-side of the two sampling modes of a synthesis workload (issue 18):
 * for each mode, the noise calibrated for the SAME target (ε, δ), the ε it would cost at
 * the plan's noise (the other mode's both with the 1 % accountant: certified, up to ~2 % on
 * the safe side of that mode's own plan), and — where the active model's step costs have been measured (a
 * synthesis job on it in this process, synthesisService.ts) — the estimated seconds per
 * demonstration and for the whole job: T_max steps per demonstration (twice for generation
 * tasks), per-token steps at the per-token step cost, per-demonstration ones at the first
 * (prefill) step's cost once per phase and the decode step's cost for the rest.
 */
import type { PrivacyEvent } from '../../../core/accounting/events';
import type { SamplingMode } from '../../../core/icl/demonstration';
import type { SamplingComparison } from '../../shared/api/planner';
import { searchEpsilon } from './fastAccounting';

/** Measured model time of one synthesis step on a model, per mode (seconds; null: not measured). */
export interface StepCosts {
  model: string;
  perTokenStep: number | null;
  perDemonstrationFirstStep: number | null;
  perDemonstrationStep: number | null;
}

export interface ModeFamily {
  sampling: SamplingMode;
  exponential: boolean;
  eventAt(parameter: number): PrivacyEvent;
}

export interface ComparisonInputs {
  modes: readonly ModeFamily[];
  /** The plan's own mode, its calibrated parameter and ε upper bound. */
  planned: { sampling: SamplingMode; parameter: number; epsilon: number };
  calibrate(family: ModeFamily): number;
  delta: number;
  /** Token steps per demonstration, phases per demonstration, demonstrations of the job. */
  steps: number;
  phases: number;
  demonstrations: number;
  costs: StepCosts | null;
}

function secondsPerDemonstration(sampling: SamplingMode, { steps, phases, costs }: ComparisonInputs): number | null {
  if (!costs) return null;
  if (sampling === 'per-token') return costs.perTokenStep === null ? null : costs.perTokenStep * steps;
  if (costs.perDemonstrationFirstStep === null || costs.perDemonstrationStep === null) return null;
  return costs.perDemonstrationFirstStep * phases + costs.perDemonstrationStep * (steps - phases);
}

export function compareSamplingModes(inputs: ComparisonInputs): SamplingComparison {
  return {
    model: inputs.costs?.model ?? null,
    modes: inputs.modes.map((family) => {
      const own = family.sampling === inputs.planned.sampling;
      const parameter = own ? inputs.planned.parameter : inputs.calibrate(family);
      const epsilonAtPlannedNoise = own ? inputs.planned.epsilon : searchEpsilon(family.eventAt(inputs.planned.parameter), inputs.delta);
      const perDemonstration = secondsPerDemonstration(family.sampling, inputs);
      return {
        sampling: family.sampling,
        planned: own,
        noise: family.exponential ? { kind: 'pure' as const, epsilonPerStep: parameter } : { kind: 'gaussian' as const, sigma: parameter },
        epsilonAtPlannedNoise,
        secondsPerDemonstration: perDemonstration,
        secondsPerJob: perDemonstration === null ? null : perDemonstration * inputs.demonstrations,
      };
    }),
  };
}
