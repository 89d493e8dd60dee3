/**
 * The planner's side-by-side of the sampling modes: each mode's noise for the same target ε
 * (the plan's own exactly as its job; the other to 1 %, certified), its ε at the plan's noise, and times
 * from step costs measured by a synthesis job (StepCostRecorder).
 */
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { computePlan } from '../../../../electron/services/planner/computePlan';
import { StepCostRecorder } from '../../../../electron/services/synthesis/stepCosts';
import { planRequestSchema } from '../../../../electron/shared/api/planner';
import { synthesisRequestSchema } from '../../../../electron/shared/api/synthesis';
import { priceSynthesis, synthesisFamily } from '../../../../electron/services/synthesis/synthesisPricing';
import type { SynthesisDataset } from '../../../../electron/services/synthesis/synthesisSource';

const dataset: SynthesisDataset = { id: 1, name: 'mail', task: 'classification', labels: ['spam', 'ham'], privacyUnit: 'record', createdAt: '2026-01-01' };
const poolUnits = new Map<string | undefined, number>([['spam', 400], ['ham', 600]]);
const workload = { kind: 'synth', shots: 4, maxTokens: 16 } as const;

describe('planner: sampling modes side by side', () => {
  it('prices both modes for the same ε, as synthesis jobs in each mode would be calibrated, with times from measured step costs', () => {
    const costs = new StepCostRecorder();
    costs.record('tiny.gguf', 'per-token', { modelMs: 1600, mechanismMs: 0, steps: 16, firstSteps: 1, firstStepMs: 100 });
    costs.record('tiny.gguf', 'per-demonstration', { modelMs: 250, mechanismMs: 0, steps: 16, firstSteps: 1, firstStepMs: 100 });
    const request = planRequestSchema.parse({ dataset: 'mail', epsilon: 4, delta: 1e-5, workload });
    const plan = computePlan(request, { dataset, poolUnits, units: 1000, budget: null, stepCosts: costs.current() });
    const [perToken, perDemo] = plan.samplingModes!.modes;
    expect([perToken.sampling, perDemo.sampling]).toEqual(['per-token', 'per-demonstration']);
    expect([perToken.planned, perDemo.planned]).toEqual([true, false]);
    const jobRequest = (sampling: 'per-token' | 'per-demonstration') => synthesisRequestSchema.parse({ dataset: 'mail', epsilon: 4, delta: 1e-5, shots: 4, maxTokens: 16, sampling });
    const sigmaOf = (sampling: 'per-token' | 'per-demonstration') => (priceSynthesis(jobRequest(sampling), dataset, poolUnits, null, 1000).plan.noise as { sigma: number }).sigma;
    const sigma = (mode: typeof perToken) => (mode.noise as { sigma: number }).sigma;
    // The plan's own mode: exactly the job's calibration and ε.
    expect(sigma(perToken)).toBeCloseTo(sigmaOf('per-token'), 6);
    expect(perToken.epsilonAtPlannedNoise).toBe(plan.epsilon.upper);
    // The other mode, from the 1 % accountant: a σ the default accountant certifies too, ≤ 2 % above its job's.
    const perDemoFamily = synthesisFamily(jobRequest('per-demonstration'), dataset, poolUnits);
    expect(accountEpsilon(perDemoFamily.eventAt(sigma(perDemo)), 1e-5).bounds.upper).toBeLessThanOrEqual(4);
    expect(sigma(perDemo) / sigmaOf('per-demonstration')).toBeGreaterThan(0.999);
    expect(sigma(perDemo) / sigmaOf('per-demonstration')).toBeLessThan(1.02);
    const atPlannedNoise = accountEpsilon(perDemoFamily.eventAt(sigma(perToken)), 1e-5).bounds;
    expect(perDemo.epsilonAtPlannedNoise).toBeGreaterThanOrEqual(atPlannedNoise.lower);
    expect(perDemo.epsilonAtPlannedNoise).toBeLessThanOrEqual(atPlannedNoise.upper * 1.02);
    expect(perDemo.epsilonAtPlannedNoise).toBeGreaterThan(plan.epsilon.upper); // one amplification for 16 steps
    // 0.1 s per per-token step; per demonstration 0.1 s for the first step, 0.01 s after it.
    expect(perToken.secondsPerDemonstration).toBeCloseTo(1.6, 9);
    expect(perDemo.secondsPerDemonstration).toBeCloseTo(0.1 + 15 * 0.01, 9);
    expect(perDemo.secondsPerJob).toBeCloseTo(4 * 0.25, 9);
    expect(plan.samplingModes!.model).toBe('tiny.gguf');
  });

  it('says nothing about time before a job has measured the model; answering plans have no sampling modes', () => {
    const plan = computePlan(planRequestSchema.parse({ dataset: 'mail', epsilon: 2, workload: { ...workload, sampling: 'per-demonstration' } }), { dataset, poolUnits, units: 1000, budget: null });
    expect(plan.samplingModes!.modes.map((m) => m.secondsPerDemonstration)).toEqual([null, null]);
    expect(plan.samplingModes!.modes[1].epsilonAtPlannedNoise).toBe(plan.epsilon.upper);
    expect(accountEpsilon(plan.event, plan.delta).bounds.upper).toBeLessThanOrEqual(2);
    const answer = computePlan(planRequestSchema.parse({ dataset: 'mail', epsilon: 2, workload: { kind: 'answer', queries: 10 } }), { dataset, poolUnits, units: 1000, budget: null });
    expect(answer.samplingModes).toBeUndefined();
  });
});
