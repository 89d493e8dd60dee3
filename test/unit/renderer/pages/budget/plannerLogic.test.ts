/** Budget planner logic without a DOM: slider mapping, typed values, requests, chart data and wording. */
import { describe, expect, it } from 'vitest';
import type { PlanResult } from '../../../../../electron/shared/api/planner';
import {
  breakEvenExplanation,
  noiseText,
  privacyCurveDescription,
  privacyCurvePoints,
  queryCurvePoints,
  samplingText,
} from '../../../../../renderer/src/pages/budget/planCharts';
import {
  answerSpecs,
  epsilonSpec,
  formFromRequest,
  fromSlider,
  initialPlannerForm,
  parseParameter,
  sliderBounds,
  synthSpecs,
  toPlanRequest,
  toSlider,
} from '../../../../../renderer/src/pages/budget/plannerForm';

describe('planner form', () => {
  it('starts from the contract defaults', () => {
    expect(initialPlannerForm.synth).toEqual({ method: 'dp-few-shot-gaussian', shots: 4, teachers: 10, perTeacher: 1, topK: 100, maxTokens: 64, rounds: 2 });
    expect(initialPlannerForm.answer).toEqual({ ensemble: 10, shots: 4, queries: 100, aggregation: 'vote' });
  });

  it('maps log-scaled sliders to round values inside the range', () => {
    expect(sliderBounds(answerSpecs.queries)).toEqual([0, 6]);
    expect(fromSlider(answerSpecs.queries, toSlider(answerSpecs.queries, 1000))).toBe(1000);
    expect(fromSlider(answerSpecs.queries, 2.5)).toBe(316);
    expect(fromSlider(epsilonSpec, 0.3)).toBe(2);
    expect(fromSlider(epsilonSpec, -5)).toBe(0.01);
    expect(fromSlider(synthSpecs.shots, 7.4)).toBe(7);
  });

  it('steps to the next value when an arrow key would round back to the current one', () => {
    const ensemble = answerSpecs.ensemble;
    expect(fromSlider(ensemble, toSlider(ensemble, 10) + 0.01, 10)).toBe(11);
    expect(fromSlider(ensemble, toSlider(ensemble, 10) - 0.01, 10)).toBe(9);
    expect(fromSlider(epsilonSpec, toSlider(epsilonSpec, 1) + 0.01, 1)).toBe(1.1);
    expect(fromSlider(epsilonSpec, toSlider(epsilonSpec, 0.01) - 0.01, 0.01)).toBe(0.01);
    expect(fromSlider(ensemble, toSlider(ensemble, 100) + 0.01, 10)).toBe(102);
  });

  it('accepts typed values in range only, whole numbers where required', () => {
    expect(parseParameter(epsilonSpec, ' 0.5 ')).toEqual({ ok: true, value: 0.5 });
    expect(parseParameter(synthSpecs.teachers, '3.5')).toEqual({ ok: false, error: 'a whole number from 1 to 200' });
    expect(parseParameter(answerSpecs.queries, '2000000')).toEqual({ ok: false, error: 'a whole number from 1 to 1,000,000' });
    expect(parseParameter(epsilonSpec, '200')).toEqual({ ok: false, error: 'a number from 0.01 to 100' });
    expect(parseParameter(epsilonSpec, '')).toMatchObject({ ok: false });
  });

  it('builds the request of the chosen workload and reads a saved one back', () => {
    const answering = { ...initialPlannerForm, kind: 'answer' as const, epsilon: 1, delta: '1e-6' };
    const result = toPlanRequest('Mail', answering);
    expect(result).toEqual({ ok: true, request: { dataset: 'Mail', epsilon: 1, delta: 1e-6, workload: { kind: 'answer', ensemble: 10, shots: 4, queries: 100, aggregation: 'vote' } } });
    expect(toPlanRequest('Mail', { ...answering, delta: '2' })).toMatchObject({ ok: false });
    const back = formFromRequest(result.ok ? result.request : (undefined as never), initialPlannerForm);
    expect(back).toEqual({ ...answering, delta: '0.000001' });
    expect(toPlanRequest('Mail', initialPlannerForm)).toMatchObject({ ok: true, request: { delta: undefined, workload: { kind: 'synth', shots: 4 } } });
  });
});

const result = {
  delta: 1e-6,
  epsilon: { lower: 1.9, estimate: 1.95, upper: 2 },
  noise: { kind: 'gaussian', sigma: 3.5, multiplier: 2.47 },
  samplingRates: [{ pool: 'spam', units: 400, q: 0.05 }],
  privacyCurve: [
    { delta: 1e-3, epsilon: 1 },
    { delta: 0, epsilon: 9 },
    { delta: 1e-9, epsilon: 3 },
  ],
  queryCurve: [
    { queries: 10, answering: 2.5, synthetic: 2 },
    { queries: 1, answering: 0.4, synthetic: 2 },
  ],
  breakEven: { queries: 7, synthEpsilon: 2, basis: 'same noise multiplier.' },
} as unknown as PlanResult;

describe('plan charts', () => {
  it('keeps the points a log axis can draw, in order', () => {
    expect(privacyCurvePoints(result).map((p) => p.delta)).toEqual([1e-9, 1e-3]);
    expect(queryCurvePoints(result).map((p) => p.queries)).toEqual([1, 10]);
  });

  it('explains the curve and the break-even in words', () => {
    expect(privacyCurveDescription(result)).toBe('ε of the plan falls from 3 at δ = 1.0e-9 to 1 at δ = 1.0e-3; at the plan\'s δ = 1.0e-6 it is 2.');
    expect(breakEvenExplanation(result)).toBe(
      'Break-even at 7 queries: from there on, answering privately costs more than one synthetic prompt (ε = 2, paid once and reused for every query). same noise multiplier.',
    );
    const never = { ...result, breakEven: { ...result.breakEven, queries: null } } as PlanResult;
    expect(breakEvenExplanation(never)).toMatch(/^Answering privately stays cheaper/);
  });

  it('words the noise and the sampling rates', () => {
    expect(noiseText(result.noise)).toBe('Gaussian σ = 3.5 (noise multiplier σ/Δ = 2.47)');
    expect(noiseText({ kind: 'pure', epsilonPerStep: 0.05 })).toMatch(/^ε = 0.05 per token step or query/);
    expect(samplingText(result.samplingRates)).toBe('spam: q = 0.05 of 400 units');
    expect(samplingText([])).toBe('—');
  });
});
