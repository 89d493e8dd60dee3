// @vitest-environment jsdom
/**
 * What the planner sends as the analyst moves a slider: the real form (PlannerForm) wired to
 * usePlanCompute as the Budget page wires it, with a counting plan.headline and plan.details.
 * One arrow key is one request; a burst of keys within the debounce is one request, for the
 * last value; keys pressed while a request runs send only the newest once it returns, and the
 * superseded answer never reaches the page. The details are asked once their headline is
 * shown, for its request; details of a superseded headline are never shown.
 */
import { act, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { container, mountEachTest, root } from '../../reactRoot';
import type { PlanDetails, PlanHeadline, PlanRequest } from '../../../../../electron/shared/api/planner';
import type { VeilApi } from '../../../../../electron/shared/contract';
import { PlannerForm } from '../../../../../renderer/src/pages/budget/PlannerForm';
import { epsilonSpec, fromSlider, initialPlannerForm, sliderStep, toPlanRequest, toSlider } from '../../../../../renderer/src/pages/budget/plannerForm';
import { PLAN_DEBOUNCE_MS, usePlanCompute, type PlanComputation } from '../../../../../renderer/src/pages/budget/usePlanCompute';

interface Sent<T> {
  request: PlanRequest;
  answer: (result: T) => void;
}

let sent: Sent<PlanHeadline>[];
let detailsSent: Sent<PlanDetails>[];
let shown: PlanComputation;
const api = {
  'plan.headline': (request: PlanRequest) => new Promise<PlanHeadline>((answer) => sent.push({ request, answer })),
  'plan.details': (request: PlanRequest) => new Promise<PlanDetails>((answer) => detailsSent.push({ request, answer })),
} as unknown as VeilApi;

function Planner() {
  const [form, setForm] = useState(initialPlannerForm);
  const parsed = toPlanRequest('sample', form);
  shown = usePlanCompute(api, parsed.ok ? parsed.request : null, 'head');
  return <PlannerForm form={form} deltaError={null} onChange={setForm} />;
}

const epsilonSlider = () => container.querySelector<HTMLInputElement>(`[aria-labelledby] input[type="range"], input[type="range"]`)!;
const press = (key: string) => act(() => void epsilonSlider().dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
/** Let `ms` pass, then the promise callbacks it started (the fake timers leave microtasks alone). */
const wait = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));
const settle = () => act(async () => undefined);
/** ε after `keys` ArrowRight presses from the initial form (the slider steps log10 ε, rounded as the form rounds it). */
function epsilonAfter(keys: number): number {
  let epsilon = initialPlannerForm.epsilon;
  for (let i = 0; i < keys; i++) epsilon = fromSlider(epsilonSpec, toSlider(epsilonSpec, epsilon) + sliderStep(epsilonSpec), epsilon);
  return epsilon;
}
const planFor = (request: PlanRequest) => ({ request }) as unknown as PlanHeadline;
const detailsFor = (request: PlanRequest) => ({ request }) as unknown as PlanDetails;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  sent = [];
  detailsSent = [];
});
mountEachTest();
beforeEach(() => act(() => root.render(<Planner />)));
afterEach(() => vi.useRealTimers());

describe('planner requests', () => {
  it('sends nothing before the debounce, then one request for the form', async () => {
    await wait(PLAN_DEBOUNCE_MS / 2);
    expect(sent).toHaveLength(0);
    await wait(PLAN_DEBOUNCE_MS);
    expect(sent.map((s) => s.request.epsilon)).toEqual([initialPlannerForm.epsilon]);
  });

  it('one arrow key on the ε slider is one request, with the stepped ε', async () => {
    await wait(PLAN_DEBOUNCE_MS);
    sent[0].answer(planFor(sent[0].request));
    await settle();
    press('ArrowRight');
    await wait(10 * PLAN_DEBOUNCE_MS);
    await settle();
    expect(sent).toHaveLength(2);
    expect(sent[1].request.epsilon).toBe(epsilonAfter(1));
    expect(epsilonAfter(1)).toBeGreaterThan(initialPlannerForm.epsilon);
  });

  it('a burst of keys within the debounce is one request, for the last value', async () => {
    await wait(PLAN_DEBOUNCE_MS);
    sent[0].answer(planFor(sent[0].request));
    await settle();
    for (let i = 0; i < 5; i++) {
      press('ArrowRight');
      await wait(PLAN_DEBOUNCE_MS / 4);
    }
    await wait(10 * PLAN_DEBOUNCE_MS);
    await settle();
    expect(sent).toHaveLength(2);
    expect(sent[1].request.epsilon).toBe(epsilonAfter(5));
  });

  it('keys pressed while a request runs send only the newest after it; the superseded answer is dropped', async () => {
    await wait(PLAN_DEBOUNCE_MS);
    press('ArrowRight');
    await wait(PLAN_DEBOUNCE_MS);
    press('ArrowRight');
    await wait(PLAN_DEBOUNCE_MS);
    press('ArrowRight');
    await wait(PLAN_DEBOUNCE_MS);
    await settle();
    expect(sent).toHaveLength(1); // the first still runs: the newer ones wait, only the newest kept
    sent[0].answer(planFor(sent[0].request));
    await settle();
    expect(shown.result).toBeNull(); // superseded: not shown
    expect(sent).toHaveLength(2);
    expect(sent[1].request.epsilon).toBe(epsilonAfter(3));
    sent[1].answer(planFor(sent[1].request));
    await settle();
    expect(shown.result?.request).toBe(sent[1].request);
    expect(shown.computing).toBe(false);
  });
});

describe('plan details', () => {
  it('are asked once the headline is shown, for its request, and shown with that headline', async () => {
    await wait(PLAN_DEBOUNCE_MS);
    expect(detailsSent).toHaveLength(0);
    sent[0].answer(planFor(sent[0].request));
    await settle();
    expect(shown.result?.request).toBe(sent[0].request);
    expect(shown.detailsComputing).toBe(true);
    expect(detailsSent.map((d) => d.request)).toEqual([sent[0].request]);
    detailsSent[0].answer(detailsFor(sent[0].request));
    await settle();
    expect(shown.details?.headline).toBe(shown.result);
    expect(shown.details?.details.request).toBe(sent[0].request);
    expect(shown.detailsComputing).toBe(false);
  });

  it('of a superseded headline are never shown; the newest headline gets its own', async () => {
    await wait(PLAN_DEBOUNCE_MS);
    sent[0].answer(planFor(sent[0].request));
    await settle();
    expect(detailsSent).toHaveLength(1); // details of the first ε run
    press('ArrowRight');
    await wait(PLAN_DEBOUNCE_MS);
    await settle();
    expect(sent).toHaveLength(2);
    detailsSent[0].answer(detailsFor(sent[0].request)); // arrives after the slider moved: dropped
    await settle();
    expect(shown.details).toBeNull();
    sent[1].answer(planFor(sent[1].request));
    await settle();
    expect(detailsSent.map((d) => d.request)).toEqual([sent[0].request, sent[1].request]);
    expect(shown.details).toBeNull();
    expect(shown.detailsComputing).toBe(true);
    detailsSent[1].answer(detailsFor(sent[1].request));
    await settle();
    expect(shown.details?.details.request).toBe(sent[1].request);
    expect(shown.details?.headline.request.epsilon).toBe(epsilonAfter(1));
  });

  it('still loading when a newer headline arrives are dropped, and the newer details wait for them', async () => {
    await wait(PLAN_DEBOUNCE_MS);
    sent[0].answer(planFor(sent[0].request));
    await settle();
    press('ArrowRight');
    await wait(PLAN_DEBOUNCE_MS);
    sent[1].answer(planFor(sent[1].request));
    await settle();
    expect(detailsSent).toHaveLength(1); // one details request at a time: the newest waits
    detailsSent[0].answer(detailsFor(sent[0].request));
    await settle();
    expect(shown.details).toBeNull();
    expect(detailsSent.map((d) => d.request)).toEqual([sent[0].request, sent[1].request]);
    detailsSent[1].answer(detailsFor(sent[1].request));
    await settle();
    expect(shown.details?.details.request).toBe(sent[1].request);
    expect(shown.details?.headline).toBe(shown.result);
  });
});
