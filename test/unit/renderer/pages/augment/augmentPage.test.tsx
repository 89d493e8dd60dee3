// @vitest-environment jsdom
/**
 * The Augment page against a scripted API: the form's errors come from the shared schema and
 * nothing is sent; a price that comes back after the form was edited is superseded (never shown,
 * Augment stays off) and an edit drops the shown price; Augment starts exactly the priced request;
 * the progress shows the job's stage, and a cancelled run shows as the service words it; a refusal
 * is shown in the service's words with the form kept. (Following the job, focus and Cancel:
 * pricedJob.test.tsx.)
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AugmentationRunDto, AugmentPlan, AugmentRequest } from '../../../../../electron/shared/api/augmentation';
import type { VeilApi } from '../../../../../electron/shared/contract';
import { AugmentView } from '../../../../../renderer/src/pages/augment/AugmentPage';
import { chooseOption, field, typeInto } from '../../formInput';
import { container, mountEachTest, root } from '../../reactRoot';
import { emit, on, resetEvents } from '../../apiEvents';

interface Pending<I, O> {
  input: I;
  resolve: (value: O) => void;
  reject: (error: Error) => void;
}

let plans: Pending<AugmentRequest, AugmentPlan>[];
let starts: AugmentRequest[];
let runs: AugmentationRunDto[];

const plan = (request: AugmentRequest): AugmentPlan => ({
  dataset: request.dataset, rho: 0.01, depth: request.depth, event: { kind: 'pure', epsilon: request.epsilon, neighbouring: 'add-remove' },
  epsilon: { lower: request.epsilon * 0.99, estimate: request.epsilon, upper: request.epsilon }, delta: 1e-5, accountant: 'pld',
  examples: request.examples, publicExamples: 6, budget: { cap: 1, spent: 0.25, afterJob: 0.25 + request.epsilon }, warnings: [],
});
const cancelledRun = (request: AugmentRequest): AugmentationRunDto => ({
  id: 1, dataset: 'notes', status: 'cancelled', jobId: 'job-1', createdAt: '2026-11-26T00:00:00.000Z', request, ledgerEntryId: 3, added: 0, certificate: null,
  error: 'cancelled; the reserved budget stays spent',
});

const never = () => new Promise<never>(() => undefined);
const api = {
  'vault.listDatasets': async () => [{ name: 'notes' }, { name: 'mail' }],
  'augment.list': async () => runs,
  'augment.get': async ({ id }: { id: number }) => runs.find((r) => r.id === id) ?? never(),
  'augment.plan': (input: AugmentRequest) => new Promise<AugmentPlan>((resolve, reject) => plans.push({ input, resolve, reject })),
  'augment.start': async (request: AugmentRequest) => (starts.push(request), { jobId: 'job-1', runId: 1 }),
  'jobs.get': never,
  'model.status': never,
  on,
} as unknown as VeilApi;

const settle = () => act(async () => undefined);
const text = () => container.textContent ?? '';
const button = (name: string) => [...container.querySelectorAll('button')].find((b) => b.textContent === name)!;
const click = (element: HTMLElement) => act(() => element.click());
const input = (label: string) => field(container, label) as HTMLInputElement;
const type = (label: string, value: string) => typeInto(container, label, value);
const chooseDataset = (name: string) => chooseOption(container, name);
const planTable = () => container.querySelector('table[aria-label="planned cost"]');

mountEachTest();
beforeEach(async () => {
  plans = [];
  starts = [];
  runs = [];
  resetEvents();
  act(() => root.render(<AugmentView api={api} />));
  await settle();
});

describe('Augment page', () => {
  it('shows the schema’s rules under the fields and sends nothing', async () => {
    type('ε of the release', '0');
    type('Examples to write (M)', '2.5');
    click(button('Price'));
    expect(text()).toContain('choose a dataset');
    expect(text()).toContain('a number above 0, at most 10');
    expect(text()).toContain('a whole number from 1 to 500');
    expect(plans).toHaveLength(0);
    expect(button('Augment').disabled).toBe(true);
  });

  it('never shows a price superseded by an edit; Augment starts exactly the priced request', async () => {
    await chooseDataset('notes');
    click(button('Price'));
    expect(plans.map((p) => p.input)).toEqual([{ dataset: 'notes', epsilon: 0.5, examples: 10, depth: 2, maxTokens: 200 }]);
    type('ε of the release', '0.7'); // edited while the price is on its way
    await act(async () => plans[0].resolve(plan(plans[0].input)));
    expect(planTable()).toBeNull();
    expect(button('Augment').disabled).toBe(true);

    click(button('Price'));
    await act(async () => plans[1].resolve(plan(plans[1].input)));
    expect(planTable()?.textContent).toContain('10 new examples into the public split, tagged generated');
    expect(planTable()?.textContent).toContain('0.2500 spent of 1.000; after this job 0.9500');
    expect(button('Augment').disabled).toBe(false);
    type('Examples to write (M)', '4'); // an edit drops the shown price
    expect(planTable()).toBeNull();
    expect(button('Augment').disabled).toBe(true);

    click(button('Price'));
    await act(async () => plans[2].resolve(plan(plans[2].input)));
    type('Tokens per example', '100'); // an edit after a price drops it; Augment sends the request priced last…
    click(button('Price'));
    await act(async () => plans[3].resolve(plan(plans[3].input)));
    click(button('Augment'));
    await settle();
    expect(starts).toEqual([{ dataset: 'notes', epsilon: 0.7, examples: 4, depth: 2, maxTokens: 100 }]); // …the one priced and shown
    expect(planTable()).toBeNull(); // spent: the next job is priced afresh
  });

  it('shows the job’s stage in its progress, and a cancelled run as the service words it', async () => {
    await chooseDataset('notes');
    click(button('Price'));
    await act(async () => plans[0].resolve(plan(plans[0].input)));
    click(button('Augment'));
    await settle();
    emit('job.progress', { jobId: 'job-1', stage: 'writing examples', done: 1, total: 4, message: 'example 2 of 4' });
    expect(container.querySelector('[aria-label="augmentation progress"]')?.textContent).toContain('writing examples: example 2 of 4 — 25 %');

    runs = [cancelledRun(starts[0])];
    emit('job.finished', { id: 'job-1', kind: 'augmentation', status: 'cancelled', startedAt: '2026-11-26T00:00:00.000Z' });
    await settle();
    expect(container.querySelector('[aria-label="augmentation progress"]')).toBeNull();
    expect(container.querySelector('[aria-label="augmentation run 1"]')?.textContent).toContain('cancelled; the reserved budget stays spent');
    expect(container.querySelector('table[aria-label="augmentation runs"]')?.textContent).toContain('0 of 10');
  });

  it('shows a refusal in the service’s words and keeps the form', async () => {
    await chooseDataset('notes');
    type('Examples to write (M)', '7');
    click(button('Price'));
    await act(async () => plans[0].reject(new Error('"notes" has no public examples (its public split, or a public source: veil public-source set): augmentation seeds from public examples')));
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('"notes" has no public examples (its public split, or a public source');
    expect(input('Examples to write (M)').value).toBe('7');
    expect(planTable()).toBeNull();
  });
});
