/**
 * The Synthesize page in Chromium through the real bridge: on the sample e-mail dataset
 * with a budget, price and generate a 4-shot DP prompt with the reference learner, watch
 * the live progress, export it, verify its certificate, and see the ledger charged.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, startApp, type AppSession } from './harness';

const SLOW = { timeout: 120_000, interval: 200 };

describe.runIf(chromiumAvailable())('Synthesize page (Chromium, browser mode)', () => {
  let app: AppSession;
  const section = (name: string) => app.page.getByRole('region', { name });

  beforeAll(async () => {
    app = await startApp();
    await app.call('vault.createSample', { name: 'Mail sample' });
    await app.call('budget.set', { dataset: 'Mail sample', epsilon: 6, delta: 1e-6 });
    await app.open('/synthesize');
  }, 120_000);
  afterAll(async () => app?.close());

  it('prices a 4-shot job against the budget', async () => {
    const settings = section('Settings');
    await settings.getByLabel('Dataset').click();
    await app.page.getByRole('option', { name: 'Mail sample' }).click();
    await settings.getByLabel('Total ε').fill('2');
    await settings.getByLabel('Shots').fill('4');
    await settings.getByRole('button', { name: 'Advanced: ensemble and instruction' }).click();
    await settings.getByLabel('Max tokens T_max').fill('24');
    await settings.getByRole('button', { name: 'Price' }).click();
    const plan = settings.getByRole('table', { name: 'planned cost' });
    await expect.poll(() => plan.textContent(), SLOW).toMatch(/Gaussian σ = /);
    expect(await plan.textContent()).toMatch(/0 spent of 6/);
  });

  it('generates with live progress, then shows the demonstrations and the certificate', async () => {
    const settings = section('Settings');
    await settings.getByRole('button', { name: 'Generate' }).click();
    const progress = settings.getByRole('group', { name: 'generation progress' });
    await expect.poll(() => progress.textContent(), SLOW).toMatch(/token steps/);
    const result = section('Result');
    await expect.poll(async () => (await result.count()) > 0 && (await result.textContent())?.includes('succeeded'), SLOW).toBe(true);
    const rows = result.getByRole('table', { name: 'synthetic demonstrations' }).getByRole('row');
    expect(await rows.count()).toBe(5);
    expect(await rows.nth(1).textContent()).toMatch(/^spam/);
    expect(await result.getByRole('table', { name: 'privacy certificate' }).textContent()).toMatch(/ε = 2\.000|ε = 1\.99/);
  }, 180_000);

  it('exports the DP prompt as JSON that verifies, and the ledger is charged', async () => {
    const download = app.page.waitForEvent('download');
    await section('Result').getByRole('button', { name: /Export JSON/ }).click();
    const file = await (await download).path();
    const text = readFileSync(file!, 'utf8');
    expect(JSON.parse(text).format).toBe('veil.dp-prompt/v1');

    const verifier = section('Verify a certificate');
    await verifier.getByLabel('Exported veil.dp-prompt/v1 JSON').fill(text);
    await verifier.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => verifier.textContent(), SLOW).toContain('The certificate is valid.');

    const summary = await app.call('ledger.summary', { dataset: 'Mail sample' });
    expect(summary.reservations.committed).toBe(1);
    expect(summary.spent.epsilon.upper).toBeGreaterThan(1.9);
    await section('Settings').getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => section('Settings').getByRole('table', { name: 'planned cost' }).textContent(), SLOW).toMatch(/[12]\.\d+ spent of 6/);
  }, 120_000);
});
