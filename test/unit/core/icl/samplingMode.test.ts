/**
 * The charge of sampling per demonstration: one PoissonSampled(q, Composed(step, T)) per
 * demonstration, which the PLD accountant composes as the subsampled Gaussian with σ/√T;
 * the job event over several pools and what the pricing (planner and job) calibrates.
 */
import { describe, expect, it } from 'vitest';
import { accountEpsilon } from '../../../../core/accounting';
import { composed, gaussian, poissonSampled, pureDp, sequence } from '../../../../core/accounting/events';
import { samplingRate } from '../../../../core/icl/demonstration';
import { tangAggregator } from '../../../../core/icl/dpFewShot';
import { demonstrationsEvent } from '../../../../core/icl/sampling';
import { jobEvent } from '../../../../core/icl/synthesisPlan';
import { synthesisRequestSchema } from '../../../../electron/shared/api/synthesis';
import { priceSynthesis } from '../../../../electron/services/synthesis/synthesisPricing';
import type { SynthesisDataset } from '../../../../electron/services/synthesis/synthesisSource';

const sigma = 3;
const gauss = tangAggregator({ kind: 'gaussian', sigma });

describe('sampling per demonstration: accounting', () => {
  it('charges one subsampled composition per demonstration, accounted as the subsampled Gaussian with σ/√T', () => {
    const event = demonstrationsEvent(gauss, 0.05, 64, 4, 'per-demonstration');
    expect(event).toEqual(composed(poissonSampled(0.05, composed(gaussian(sigma, Math.SQRT2), 64)), 4));
    const closedForm = composed(poissonSampled(0.05, gaussian(sigma / 8, Math.SQRT2)), 4);
    const a = accountEpsilon(event, 1e-6).bounds;
    const b = accountEpsilon(closedForm, 1e-6).bounds;
    expect(a.upper).toBeCloseTo(b.upper, 10);
    expect(a.lower).toBeCloseTo(b.lower, 10);
    // Fewer fresh samples: less amplification than 256 independently sampled steps at the same σ.
    expect(a.upper).toBeGreaterThan(accountEpsilon(demonstrationsEvent(gauss, 0.05, 64, 4, 'per-token'), 1e-6).bounds.upper);
  });

  it('charges T ε-DP steps on one sample as PureDp(T·ε) (basic composition)', () => {
    const exp = tangAggregator({ kind: 'exponential', epsilon: 0.1 });
    const event = demonstrationsEvent(exp, 0.1, 10, 2, 'per-demonstration');
    expect(event).toMatchObject({ kind: 'composed', count: 2, event: { kind: 'poisson-sampled', q: 0.1, event: { kind: 'pure' } } });
    const inner = (event as { event: { event: { epsilon: number } } }).event.event;
    expect(inner.epsilon).toBeCloseTo(1, 12);
    expect(event).toEqual(composed(poissonSampled(0.1, pureDp(inner.epsilon)), 2));
  });

  it('the job event dominates every pool’s: the largest q, the most demonstrations', () => {
    const shape = { teachers: 10, perTeacher: 2, topK: 50, maxTokens: 32, sampling: 'per-demonstration' as const };
    const pools = [{ label: 'spam', units: 400, demonstrations: 3 }, { label: 'ham', units: 1000, demonstrations: 2 }];
    expect(jobEvent(pools, shape, gauss, 'record')).toEqual(composed(poissonSampled(samplingRate(shape, 400), composed(gaussian(sigma, Math.SQRT2), 32)), 3));
  });

  it('pricing a job (as the planner does) calibrates the per-demonstration event to the requested ε', () => {
    const dataset: SynthesisDataset = { id: 1, name: 'mail', task: 'classification', labels: ['spam', 'ham'], privacyUnit: 'record', createdAt: '2026-01-01' };
    const units = new Map<string | undefined, number>([['spam', 400], ['ham', 600]]);
    const at = (sampling: 'per-token' | 'per-demonstration') =>
      priceSynthesis(synthesisRequestSchema.parse({ dataset: 'mail', epsilon: 4, delta: 1e-5, shots: 4, maxTokens: 32, sampling }), dataset, units, null, 1000);
    const fixed = at('per-demonstration');
    const sigmaFixed = (fixed.plan.noise as { sigma: number }).sigma;
    // The noisy pool sizes are released first (ε 0.1, their own ledger entry), then the job reserves the demonstrations.
    const steps = jobEvent(fixed.pools, fixed.shape, tangAggregator({ kind: 'gaussian', sigma: sigmaFixed }), 'record');
    expect(fixed.plan.event).toEqual(steps);
    expect(fixed.plan.totalEvent).toEqual(sequence([pureDp(0.1), steps]));
    expect(steps).toMatchObject({ kind: 'composed', count: 2, event: { kind: 'poisson-sampled', event: { kind: 'composed', count: 32 } } });
    expect(fixed.plan.epsilon.upper).toBeLessThanOrEqual(4);
    expect(fixed.plan.epsilon.upper).toBeGreaterThan(4 * 0.99);
    // The same ε needs more noise per token when the sample is kept for 32 steps.
    expect(sigmaFixed).toBeGreaterThan((at('per-token').plan.noise as { sigma: number }).sigma);
  });
});
