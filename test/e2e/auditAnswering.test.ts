/**
 * The Audit page's private answering target in Chromium through the real bridge: on the sample
 * e-mails, audit private answering by vote at ε = 1000 per query (3 teachers), see its metrics,
 * the accounted ε of one query and why no canary audit ran, with nothing charged to the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, type AppSession } from './harness';
import { startWithSampleBudget } from './sampleApp';

const SLOW = { timeout: 300_000, interval: 250 };

describe.runIf(chromiumAvailable())('Audit page: private answering target (Chromium, browser mode)', () => {
  let app: AppSession;
  const section = (name: string) => app.page.getByRole('region', { name });

  beforeAll(async () => {
    app = await startWithSampleBudget();
    await app.open('/audit');
  }, 300_000);
  failOnProblems(() => app);
  afterAll(async () => app?.close());

  it('audits private answering by vote and charges nothing', async () => {
    const before = (await app.call('ledger.entries', { dataset: 'Mail sample' })).length;
    const form = section('New audit');
    await form.getByLabel('Dataset').click();
    await app.page.getByRole('option', { name: 'Mail sample' }).click();
    await form.getByRole('checkbox', { name: /baseline/ }).uncheck();
    await form.getByRole('checkbox', { name: 'Private answering' }).check();
    await form.getByLabel('Aggregation').click();
    await app.page.getByRole('option', { name: 'vote', exact: true }).click();
    await form.getByLabel('ε per query').fill('1000');
    await form.getByLabel('Teachers').fill('3');
    await form.getByLabel('Members per target').fill('12');
    await form.getByLabel('Canaries').fill('8');
    await form.getByRole('button', { name: 'Start audit' }).click();
    const result = section('Audit result');
    await expect.poll(async () => (await result.count()) > 0 && (await result.getByRole('button', { name: 'Export report (HTML)' }).count()) > 0, SLOW).toBe(true);
    const name = 'private answering (vote, ε = 1000 per query, M = 3, 2 shots)';
    expect(await result.getByRole('table', { name: `metrics of ${name}` }).textContent()).toMatch(/label-probability12 \/ 12/);
    expect(await result.getByLabel(`privacy of ${name}`).textContent()).toMatch(/accounted ε ≤ 99\d\.\d+.*canary audit of private answering is not in this version/i);
    expect(await app.call('ledger.entries', { dataset: 'Mail sample' })).toHaveLength(before);
  }, 400_000);
});
