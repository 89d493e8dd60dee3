// @vitest-environment jsdom
/**
 * The Audit page's running audit against a scripted API (RunningJob, as on the priced pages): Start
 * audit moves the focus to the progress group, which shows the stage; "Cancel audit" (audits charge
 * nothing) cancels that job and waits, disabled, for the service; a refused cancel shows under the
 * group and goes with the audit's end, never in the start error.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { VeilApi } from '../../../../../electron/shared/contract';
import { AuditView } from '../../../../../renderer/src/pages/audit/AuditPage';
import { chooseOption } from '../../formInput';
import { container, mountEachTest, root } from '../../reactRoot';
import { emit, on, resetEvents } from '../../apiEvents';

let cancels: { id: string; reject: (error: Error) => void }[];

const never = () => new Promise<never>(() => undefined);
const api = {
  'vault.listDatasets': async () => [{ id: 1, name: 'notes' }],
  'synth.list': async () => [],
  'audit.list': async () => [],
  'audit.get': never,
  'audit.start': async () => ({ jobId: 'job-1', auditId: 5 }),
  'jobs.get': never,
  'jobs.cancel': ({ id }: { id: string }) => new Promise((_resolve, reject) => cancels.push({ id, reject })),
  on,
} as unknown as VeilApi;

const settle = () => act(async () => undefined);
const button = (name: string) => [...container.querySelectorAll('button')].find((b) => b.textContent === name);
const group = () => container.querySelector<HTMLElement>('[role="group"][aria-label="audit progress"]');
const alerts = () => [...container.querySelectorAll('[role="alert"]')].map((a) => a.textContent);

mountEachTest();
beforeEach(async () => {
  cancels = [];
  resetEvents();
  act(() => root.render(<AuditView api={api} />));
  await settle();
});

describe('Audit page: the running audit', () => {
  it('shows its stage in a focused group; Cancel audit cancels it, disabled until the service answers; a refusal shows until the audit ends', async () => {
    await chooseOption(container, 'notes');
    act(() => button('Start audit')!.click());
    await settle();
    expect(group()).not.toBeNull();
    expect(document.activeElement).toBe(group());
    expect(button('Start audit')!.disabled).toBe(true);
    emit('job.progress', { jobId: 'job-1', stage: 'attacking', done: 2, total: 8 });
    expect(group()!.textContent).toContain('attacking: 2 of 8 — 25 %');

    act(() => button('Cancel audit')!.click());
    await settle();
    expect(cancels.map((c) => c.id)).toEqual(['job-1']);
    expect(button('Cancelling…')!.disabled).toBe(true);
    await act(async () => cancels[0].reject(new Error('job-1 is not running')));
    expect(alerts()).toEqual(['job-1 is not running']);
    expect(button('Cancel audit')!.disabled).toBe(false);

    emit('job.finished', { id: 'job-1', kind: 'audit', status: 'succeeded', startedAt: '2026-11-26T00:00:00.000Z' });
    await settle();
    expect(group()).toBeNull();
    expect(alerts()).toEqual([]);
    expect(button('Start audit')!.disabled).toBe(false);
  });
});
