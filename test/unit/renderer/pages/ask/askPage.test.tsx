// @vitest-environment jsdom
/**
 * The Ask page against a scripted API: a price is bound to the request it priced. One that
 * comes back after the form was edited, or after the dataset's public source was changed (the
 * default aggregation and the price follow the public examples), is never shown and Ask stays
 * off; Ask starts exactly the priced request, after which the next job is priced afresh.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnswerPlanDto } from '../../../../../electron/shared/api/answering';
import type { PublicSourceDto } from '../../../../../electron/shared/api/publicSource';
import type { MethodInput, VeilApi } from '../../../../../electron/shared/contract';
import { AskView } from '../../../../../renderer/src/pages/ask/AskPage';
import { chooseOption, typeInto } from '../../formInput';
import { container, mountEachTest, root } from '../../reactRoot';

type Request = MethodInput<'ask.plan'>;

let plans: { input: Request; resolve: (plan: AnswerPlanDto) => void }[];
let starts: Request[];
let source: PublicSourceDto;

const plan = (request: Request): AnswerPlanDto => ({
  request: request as AnswerPlanDto['request'], aggregation: 'sga', queries: 1, delta: 1e-5, noise: { kind: 'sga', rho: 0.2 }, ptrDelta: null, sizeEpsilon: 0.1, q: 0.05,
  event: { kind: 'pure', epsilon: 1, neighbouring: 'add-remove' }, totalEvent: { kind: 'pure', epsilon: 1, neighbouring: 'add-remove' },
  epsilon: { lower: 0.99, estimate: 1, upper: 1 }, accountant: 'pld', budget: null, warnings: [],
});

const never = () => new Promise<never>(() => undefined);
const api = {
  'vault.listDatasets': async () => [{ name: 'notes', task: 'generation' }, { name: 'corpus', task: 'generation' }],
  'ask.list': async () => [],
  'ask.get': never,
  'publicSource.get': async () => source,
  'publicSource.set': async ({ from }: { from: string | null }) => (source = { ...source, from, fromRecords: from ? 5 : null, uses: from ? 'other-dataset' : 'none' }),
  'ask.plan': (input: Request) => new Promise<AnswerPlanDto>((resolve) => plans.push({ input, resolve })),
  'ask.start': async (request: Request) => (starts.push(request), { jobId: 'job-1', runId: 1 }),
  'jobs.get': never,
  on: () => () => undefined,
} as unknown as VeilApi;

const settle = () => act(async () => undefined);
const button = (name: string) => [...container.querySelectorAll('button')].find((b) => b.textContent === name)!;
const click = async (element: HTMLElement) => {
  act(() => element.click());
  await settle();
};
const planTable = () => container.querySelector('table[aria-label="planned cost"]');
const type = (label: string, value: string) => typeInto(container, label, value);

mountEachTest();
beforeEach(async () => {
  plans = [];
  starts = [];
  source = { dataset: 'notes', from: 'corpus', inDomain: 0, fromRecords: 5, uses: 'other-dataset' };
  act(() => root.render(<AskView api={api} />));
  await settle();
  await chooseOption(container, 'notes');
  type('Questions (one per line)', 'what is it about?');
});

describe('Ask page prices', () => {
  it('never shows a price that comes back after the public source changed', async () => {
    await click(button('Price'));
    expect(plans).toHaveLength(1);
    await click(button('Stop using “corpus”')); // while the price is on its way
    await act(async () => plans[0].resolve(plan(plans[0].input)));
    expect(planTable()).toBeNull();
    expect(button('Ask').disabled).toBe(true);
  });

  it('never shows a price superseded by an edit; Ask starts exactly the priced request', async () => {
    await click(button('Price'));
    type('Questions (one per line)', 'what is it about?\nand this one?');
    await act(async () => plans[0].resolve(plan(plans[0].input)));
    expect(planTable()).toBeNull();

    await click(button('Price'));
    await act(async () => plans[1].resolve(plan(plans[1].input)));
    expect(planTable()).not.toBeNull();
    await click(button('Ask'));
    expect(starts).toEqual([plans[1].input]);
    expect(starts[0].queries).toEqual(['what is it about?', 'and this one?']);
    expect(planTable()).toBeNull(); // spent: the next job is priced afresh
  });
});
