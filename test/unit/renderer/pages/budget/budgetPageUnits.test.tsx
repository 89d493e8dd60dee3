// @vitest-environment jsdom
/**
 * The Budget page's N before a budget exists is the services' N: the real page over the real
 * services (callMethod on a real SQLite vault), for a subject-level dataset where some private
 * records have no subject. Each such record is its own subject (privacyUnitCount, as the sampler
 * and the default δ count it), so N = 2 subjects + 2 subject-less records = 4, not the 2
 * distinct subject ids vault.stats reports.
 */
import { act } from 'react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { container, mountEachTest, remount, root } from '../../reactRoot';
import { callMethod } from '../../../../../electron/services/api';
import type { MethodName, VeilApi } from '../../../../../electron/shared/contract';
import { connection } from '../../../../../renderer/src/api/client';
import BudgetPage from '../../../../../renderer/src/pages/budget/BudgetPage';
import { datasetWith, MIXED_SUBJECTS, tempServices } from '../../../../helpers/services';

const { ctx, remove } = tempServices('veil-budget-units-');
const services = new Proxy({ on: () => () => undefined }, {
  get: (target, name) => (name === 'on' ? target.on : (input: unknown) => callMethod(ctx, name as MethodName, input)),
}) as unknown as VeilApi;

beforeAll(async () => {
  await datasetWith(ctx, { name: 'mixed', ...MIXED_SUBJECTS.dataset }, MIXED_SUBJECTS.records);
  connection.api = services;
}, 60_000);
afterAll(remove);
mountEachTest();

/** Polls the page for `pattern` for up to 60 s (the page also prices a plan on the same thread: slow on a loaded machine). */
async function shown(pattern: RegExp): Promise<string> {
  for (let i = 0; i < 1200; i++) {
    const match = container.textContent?.match(pattern);
    if (match) return match[0];
    await act(async () => void (await new Promise((r) => setTimeout(r, 50))));
  }
  throw new Error(`not shown: ${pattern}; page: ${container.textContent?.slice(0, 500)}`);
}

it("shows the services' N for a subject-level dataset with records lacking a subject", async () => {
  const service = await callMethod(ctx, 'budget.privacyUnits', { dataset: 'mixed' });
  expect(service).toMatchObject({ unit: 'subject', n: MIXED_SUBJECTS.n });
  expect((await callMethod(ctx, 'vault.stats', { dataset: 'mixed' })).subjects).toBe(MIXED_SUBJECTS.distinctSubjectIds); // what the page used to show
  act(() => root.render(<BudgetPage />));
  expect(await shown(/N = [\d,]+ subjects?/)).toBe(`N = ${service.n} subjects`);
  // The budget set with the default δ uses the same N, and the page then takes it from the budget.
  remount(); // the page is done: nothing of it runs on while the budget is set
  const { budget } = await callMethod(ctx, 'budget.set', { dataset: 'mixed', epsilon: 1 });
  expect(budget.privacyUnits).toBe(service.n);
}, 120_000);
