/**
 * Step costs measured by synthesis jobs in this process (model time + mechanism per token
 * step, per sampling mode), for the planner's time estimates (planner/samplingComparison.ts).
 * Kept in memory: a cost belongs to a loaded model on this machine, under its current load.
 */
import type { SamplingMode, StepTiming } from '../../../core/icl/demonstration';
import type { ServiceContext } from '../context';
import type { StepCosts } from '../planner/samplingComparison';

export class StepCostRecorder {
  private latest: StepCosts | null = null;

  /** Record a finished job's timing on `model`. */
  record(model: string, sampling: SamplingMode, timing: StepTiming): void {
    const steps = timing.steps ?? 0;
    if (steps === 0) return;
    const seconds = (timing.modelMs + timing.mechanismMs) / 1000;
    const base: StepCosts = this.latest?.model === model ? this.latest : { model, perTokenStep: null, perDemonstrationFirstStep: null, perDemonstrationStep: null };
    if (sampling === 'per-token') {
      this.latest = { ...base, perTokenStep: seconds / steps };
      return;
    }
    const first = timing.firstSteps ?? 0;
    const firstSeconds = (timing.firstStepMs ?? 0) / 1000;
    this.latest = {
      ...base,
      perDemonstrationFirstStep: first > 0 ? firstSeconds / first : base.perDemonstrationFirstStep,
      perDemonstrationStep: steps > first ? (seconds - firstSeconds) / (steps - first) : base.perDemonstrationStep,
    };
  }

  /** The costs measured on the model of the latest job (null: no job has run). */
  current(): StepCosts | null {
    return this.latest;
  }
}

export const getStepCosts = (ctx: ServiceContext): Promise<StepCostRecorder> => ctx.singleton('stepCosts', async () => new StepCostRecorder());
