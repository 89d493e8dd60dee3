// @vitest-environment jsdom
/**
 * The price shown before its details: a synthetic-prompt plan's "Sampling modes" row says the
 * modes are being computed until the details of that very headline are in, then lists both;
 * the time row adds the details' time. An answering plan has no such row.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { PlanDetails, PlanHeadline } from '../../../../../electron/shared/api/planner';
import { PlanResultView } from '../../../../../renderer/src/pages/budget/PlanResultView';
import { container, mountEachTest, root } from '../../reactRoot';

mountEachTest();

const headline = {
  request: { dataset: 'mail', epsilon: 2, workload: { kind: 'synth', method: 'dp-few-shot-gaussian', shots: 4, teachers: 10, perTeacher: 1, topK: 100, maxTokens: 64, rounds: 2 } },
  delta: 1e-5,
  units: 1000,
  noise: { kind: 'gaussian', sigma: 3, multiplier: 1.5 },
  samplingRates: [{ pool: '(all)', units: 1000, q: 0.01 }],
  event: { kind: 'pure', epsilon: 2, neighbouring: 'add-remove' },
  epsilon: { lower: 1.98, estimate: 1.99, upper: 1.999 },
  accountant: 'pld',
  rdpEpsilon: 2.4,
  budget: null,
  warnings: [],
  seconds: 0.08,
} as PlanHeadline;
const details = {
  request: headline.request,
  event: headline.event,
  seconds: 0.05,
  samplingModes: {
    model: null,
    modes: [
      { sampling: 'per-token', planned: true, noise: { kind: 'gaussian', sigma: 3 }, epsilonAtPlannedNoise: 1.999, secondsPerDemonstration: null, secondsPerJob: null },
      { sampling: 'per-demonstration', planned: false, noise: { kind: 'gaussian', sigma: 4.5 }, epsilonAtPlannedNoise: 3.2, secondsPerDemonstration: null, secondsPerJob: null },
    ],
  },
} as unknown as PlanDetails;

const row = (name: string) => [...container.querySelectorAll('tr')].find((tr) => tr.textContent?.startsWith(name))?.textContent ?? null;

describe('PlanResultView', () => {
  it('says the sampling modes are being computed until the details are in, then shows both', () => {
    act(() => root.render(<PlanResultView result={headline} details={null} />));
    expect(row('Sampling modes')).toMatch(/computing both modes side by side/);
    expect(row('Computed in')).toBe('Computed in80 ms (in the service process)');
    act(() => root.render(<PlanResultView result={headline} details={details} />));
    expect(row('Sampling modes')).toMatch(/per-token: σ = 3\.000 for the same ε; .*per-demonstration: σ = 4\.500 for the same ε \(1 % accountant\); ε 3\.200 at the plan's noise \(1 % accountant\)/s);
    expect(row('Computed in')).toMatch(/80 ms \(in the service process\); curves, break-even and sampling modes 50 ms more/);
  });

  it('says the sampling modes are not available when the details failed, instead of computing forever', () => {
    act(() => root.render(<PlanResultView result={headline} details={null} detailsFailed />));
    expect(row('Sampling modes')).toMatch(/not available: the details could not be computed/);
    expect(row('Sampling modes')).not.toMatch(/computing/);
  });

  it('has no sampling modes row for an answering plan', () => {
    const answering = { ...headline, request: { dataset: 'mail', epsilon: 2, workload: { kind: 'answer', ensemble: 10, shots: 4, queries: 100, aggregation: 'vote' } } } as PlanHeadline;
    act(() => root.render(<PlanResultView result={answering} details={null} />));
    expect(row('Sampling modes')).toBeNull();
    expect(row('ε of the plan')).toMatch(/^ε of the plan1\.999 at δ = 1\.0e-5/);
  });
});
