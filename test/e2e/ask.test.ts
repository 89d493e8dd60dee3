/**
 * The Ask page in Chromium through the real bridge: the sample e-mails with a budget; price
 * and ask 5 held-out e-mails by private voting with the reference learner, see the answers
 * with their noisy votes and the ledger charged, export the answers and verify their
 * certificate on the page.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, startApp, type AppSession } from './harness';

const SLOW = { timeout: 120_000, interval: 200 };

describe.runIf(chromiumAvailable())('Ask page (Chromium, browser mode)', () => {
  let app: AppSession;
  const section = (name: string) => app.page.getByRole('region', { name });

  beforeAll(async () => {
    app = await startApp();
    await app.call('vault.createSample', { name: 'Mail sample' });
    await app.call('budget.set', { dataset: 'Mail sample', epsilon: 6, delta: 1e-6 });
    await app.open('/ask');
  }, 120_000);
  failOnProblems(() => app);
  afterAll(async () => app?.close());

  it('prices 5 held-out questions by private voting against the budget', async () => {
    const settings = section('Settings');
    await settings.getByLabel('Dataset').click();
    await app.page.getByRole('option', { name: 'Mail sample' }).click();
    const ask = settings.getByRole('button', { name: 'Ask', exact: true });
    await settings.getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => settings.textContent(), SLOW).toContain('type at least one question');
    expect(await ask.isDisabled()).toBe(true);
    await settings.getByLabel('ε of the batch').fill('2');
    await settings.getByLabel('Evaluate on held-out records').fill('5');
    await settings.getByRole('button', { name: 'Price' }).click();
    const plan = settings.getByRole('table', { name: 'planned cost' });
    await expect.poll(() => plan.textContent(), SLOW).toMatch(/5 by vote.*Gaussian σ = /);
    expect(await plan.textContent()).toMatch(/0\.000 spent of 6\.000; after this batch (2\.000|1\.99\d)/);
    expect(await ask.isDisabled()).toBe(false);
    // Voting uses no public candidates nor keywords: the page does not ask for them.
    expect(await settings.getByLabel('Candidates').count()).toBe(0);
  });

  it('asks, shows the answers with their noisy votes and the charge, and the evaluation', async () => {
    await section('Settings').getByRole('button', { name: 'Ask', exact: true }).click();
    const answers = section('Answers');
    await expect.poll(async () => (await answers.count()) > 0 && (await answers.textContent())?.includes('succeeded'), SLOW).toBe(true);
    const rows = answers.getByRole('table', { name: 'answers' }).getByRole('row');
    expect(await rows.count()).toBe(6);
    for (let i = 1; i <= 5; i++) expect(await rows.nth(i).textContent()).toMatch(/(spam|ham)spam: -?\d+ · ham: -?\d+$/);
    expect(await answers.getByRole('status').textContent()).toMatch(/Charged in the ledger: ε ≤ (2\.000|1\.99\d)/);
    expect(await answers.getByRole('table', { name: 'evaluation' }).textContent()).toMatch(/accuracy on 5 held-out records.*Zero-shot \(ε = 0\).*NOT private.*Balanced accuracy.*Break-even/);
    const summary = await app.call('ledger.summary', { dataset: 'Mail sample' });
    // The noisy size of the private split (its own entry, charged first), then the batch.
    expect(summary.reservations.committed).toBe(2);
    expect(summary.spent.epsilon.upper).toBeGreaterThan(1.9);
  }, 180_000);

  it('exports the answers as JSON whose certificate verifies', async () => {
    const download = app.page.waitForEvent('download');
    await section('Answers').getByRole('button', { name: /Export answers with certificate/ }).click();
    const text = readFileSync((await (await download).path())!, 'utf8');
    expect(JSON.parse(text).format).toBe('veil.dp-answers/v1');
    const verifier = section('Verify a certificate');
    await verifier.getByLabel('Exported DP prompt or DP answers (JSON)').fill(text);
    await verifier.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => verifier.textContent(), SLOW).toContain('The certificate is valid.');
  }, 120_000);
});
