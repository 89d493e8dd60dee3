// @vitest-environment jsdom
/**
 * The priced job the Synthesize, Ask and Augment pages share (usePricedJob, useRuns, PricedJobForm,
 * RunningJob), on a page of its own against a scripted API: a form with errors prices nothing; the
 * start button waits for a price; a started job's run is selected and listed; its progress shows in
 * a focused group; Cancel (named by the page) cancels that job (Cancelling… until the service answers,
 * a refusal shown with the job still followed, and gone with its end); a cancelled or failed end (from
 * the event or from jobs.get) drops the group, frees the form and reads the runs again; a refused
 * start follows nothing.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../../electron/shared/api/jobs';
import type { VeilApi } from '../../../../electron/shared/contract';
import { JobProgressBar } from '../../../../renderer/src/components/JobProgressBar';
import { PricedJobForm } from '../../../../renderer/src/components/PricedJobForm';
import { RunningJob } from '../../../../renderer/src/components/RunningJob';
import { usePricedJob, type Checked } from '../../../../renderer/src/components/usePricedJob';
import { useRuns } from '../../../../renderer/src/components/useRuns';
import { container, mountEachTest, root } from '../reactRoot';
import { emit, on, resetEvents } from '../apiEvents';

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

type Request = { n: number };
type Errors = { n: string };

let form: Checked<Request, Errors>;
let priced: Request[];
let started: Request[];
let startAnswer: () => Promise<{ jobId: string; runId: number }>;
let cancels: { id: string; answer: Deferred<{ cancelled: boolean }> }[];
let jobsGet: (id: string) => Promise<JobRecord>;
let listed: number;
let read: number[];

const never = () => new Promise<never>(() => undefined);
const api = {
  'jobs.get': ({ id }: { id: string }) => jobsGet(id),
  'jobs.cancel': ({ id }: { id: string }) => {
    const answer = deferred<{ cancelled: boolean }>();
    cancels.push({ id, answer });
    return answer.promise;
  },
  on,
} as unknown as VeilApi;

function TestPage({ cancelLabel }: { cancelLabel?: string }) {
  const runs = useRuns({ list: async () => (listed++, []), get: async (id) => (read.push(id), { id }) }, [api]);
  const job = usePricedJob(api, {
    read: () => form,
    price: async (request: Request) => (priced.push(request), { cost: request.n }),
    start: (request) => (started.push(request), startAnswer()),
    runs,
  });
  return (
    <>
      <PricedJobForm label="test settings" action="Start" job={job}>
        {job.errors.n && <p data-testid="field-error">{job.errors.n}</p>}
      </PricedJobForm>
      {job.error && <p role="alert">{job.error}</p>}
      <p data-testid="selected">{runs.selected ?? 'none'}</p>
      <RunningJob job={job} label="test progress" cancelLabel={cancelLabel}>
        {(running) => <JobProgressBar job={running} what="Test" />}
      </RunningJob>
    </>
  );
}

const settle = () => act(async () => undefined);
const button = (name: string) => [...container.querySelectorAll('button')].find((b) => b.textContent === name);
const click = async (element: HTMLElement | undefined) => {
  expect(element).toBeDefined();
  act(() => element!.click());
  await settle();
};
const group = () => container.querySelector<HTMLElement>('[role="group"][aria-label="test progress"]');
const byTestId = (id: string) => container.querySelector(`[data-testid="${id}"]`)?.textContent;
const finished = (status: JobRecord['status']): JobRecord => ({ id: 'job-1', kind: 'test', status, startedAt: '2026-11-26T00:00:00.000Z', error: status === 'failed' ? 'it broke' : undefined });

/** Prices a valid form and starts it: the job runs. */
async function startJob() {
  await click(button('Price'));
  await click(button('Start'));
}

mountEachTest();
beforeEach(async () => {
  form = { ok: true, request: { n: 3 } };
  priced = [];
  started = [];
  startAnswer = async () => ({ jobId: 'job-1', runId: 7 });
  cancels = [];
  jobsGet = never;
  listed = 0;
  read = [];
  resetEvents();
  act(() => root.render(<TestPage />));
  await settle();
});

describe('a page’s priced job', () => {
  it('shows the form’s errors and prices nothing; Start waits for a price and starts exactly the priced request', async () => {
    form = { ok: false, errors: { n: 'a whole number' } };
    await click(button('Price'));
    expect(byTestId('field-error')).toBe('a whole number');
    expect(priced).toEqual([]);
    expect(button('Start')!.disabled).toBe(true);
    expect(container.textContent).toContain('Price the settings first: Start spends the budget the price shows.');

    form = { ok: true, request: { n: 3 } };
    await click(button('Price'));
    expect(byTestId('field-error')).toBeUndefined();
    expect(priced).toEqual([{ n: 3 }]);
    expect(button('Start')!.disabled).toBe(false);
    expect(container.textContent).toContain('Start reserves the ε shown below in the ledger.');
    form = { ok: true, request: { n: 4 } }; // read at Price, not at Start
    await click(button('Start'));
    expect(started).toEqual([{ n: 3 }]);
  });

  it('follows the started job in a focused group; Cancel cancels that job, Cancelling… until the service answers; the cancelled end frees the form and reads the runs again', async () => {
    const listedBefore = listed;
    await startJob();
    expect(byTestId('selected')).toBe('7');
    expect(listed).toBe(listedBefore + 1); // the new run is listed
    expect(group()).not.toBeNull();
    expect(document.activeElement).toBe(group()); // not Cancel: a second Enter must not cancel
    expect(button('Price')!.disabled).toBe(true);
    expect(button('Start')!.disabled).toBe(true);

    emit('job.progress', { jobId: 'job-1', stage: 'writing', done: 1, total: 4, message: 'step 2 of 4' });
    expect(group()!.textContent).toContain('step 2 of 4 — 25 %');
    emit('job.progress', { jobId: 'another-job', stage: 'other', done: 3, total: 4, message: 'not ours' });
    expect(group()!.textContent).not.toContain('not ours');

    await click(button('Cancel (the reserved budget stays spent)'));
    expect(cancels.map((c) => c.id)).toEqual(['job-1']);
    expect(button('Cancelling…')!.disabled).toBe(true);
    await act(async () => cancels[0].answer.resolve({ cancelled: true }));
    expect(button('Cancel (the reserved budget stays spent)')!.disabled).toBe(false);

    const readBefore = read.length;
    emit('job.finished', finished('cancelled'));
    await settle();
    expect(group()).toBeNull();
    expect(button('Price')!.disabled).toBe(false);
    expect(read.length).toBe(readBefore + 1); // the run read again, as it ended
    expect(read.at(-1)).toBe(7);
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });

  it('ends a failed job the same way when only jobs.get reports it (the events were missed)', async () => {
    const failed = deferred<JobRecord>();
    jobsGet = () => failed.promise;
    await startJob();
    expect(group()).not.toBeNull();
    const listedBefore = listed;
    await act(async () => failed.resolve(finished('failed')));
    expect(group()).toBeNull();
    expect(button('Price')!.disabled).toBe(false);
    expect(listed).toBe(listedBefore + 1);
  });

  it('shows a refused cancel under the group and keeps following the job; the refusal goes with the job’s end', async () => {
    await startJob();
    await click(button('Cancel (the reserved budget stays spent)'));
    await act(async () => cancels[0].answer.reject(new Error('job-1 is not running')));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('job-1 is not running');
    expect(group()).not.toBeNull();
    expect(button('Cancel (the reserved budget stays spent)')!.disabled).toBe(false);
    emit('job.progress', { jobId: 'job-1', stage: 'writing', done: 3, total: 4, message: 'step 4 of 4' });
    expect(group()!.textContent).toContain('step 4 of 4 — 75 %');

    emit('job.finished', finished('succeeded')); // the cancel had raced the job's end
    await settle();
    expect(group()).toBeNull();
    expect(container.querySelector('[role="alert"]')).toBeNull();

    startAnswer = async () => ({ jobId: 'job-2', runId: 8 });
    await startJob();
    expect(group()).not.toBeNull();
    expect(container.querySelector('[role="alert"]')).toBeNull(); // nor beside the next job
  });

  it('names Cancel as the page says (cancelLabel)', async () => {
    act(() => root.render(<TestPage cancelLabel="Cancel audit" />));
    await startJob();
    await click(button('Cancel audit'));
    expect(cancels.map((c) => c.id)).toEqual(['job-1']);
  });

  it('shows a refused start in the service’s words and follows nothing', async () => {
    startAnswer = () => Promise.reject(new Error('over budget'));
    await startJob();
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('over budget');
    expect(group()).toBeNull();
    expect(byTestId('selected')).toBe('none');
    expect(button('Price')!.disabled).toBe(false);
    expect(button('Start')!.disabled).toBe(false); // still priced: the same request may be started again
  });
});
