/**
 * The Audit page in Chromium through the real bridge: on the sample e-mails with a DP
 * synthetic prompt at ε = 1, audit the baseline and that prompt together, follow the job,
 * see both targets' ROC curves and metrics, the empirical ε beside the accounted ε, the
 * past-audits comparison, and export the HTML report.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, type AppSession } from './harness';
import { startWithSampleBudget } from './sampleApp';

const SLOW = { timeout: 300_000, interval: 250 };

describe.runIf(chromiumAvailable())('Audit page (Chromium, browser mode)', () => {
  let app: AppSession;
  let runId: number;
  const section = (name: string) => app.page.getByRole('region', { name });

  beforeAll(async () => {
    app = await startWithSampleBudget();
    const started = await app.call('synth.start', { dataset: 'Mail sample', epsilon: 1, shots: 4, maxTokens: 16, topK: 50 });
    runId = started.runId;
    await app.call('jobs.get', { id: started.jobId });
    for (let i = 0; i < 1200 && (await app.call('synth.get', { id: runId })).status === 'running'; i++) await new Promise((r) => setTimeout(r, 250));
    if ((await app.call('synth.get', { id: runId })).status !== 'succeeded') throw new Error('the DP synthesis run did not succeed');
    await app.open('/audit');
  }, 300_000);
  failOnProblems(() => app);
  afterAll(async () => app?.close());

  it('audits the baseline and the DP prompt: both ROC curves, empirical ε beside the accounted ε', async () => {
    const form = section('New audit');
    await form.getByLabel('Dataset').click();
    await app.page.getByRole('option', { name: 'Mail sample' }).click();
    await form.getByRole('checkbox', { name: new RegExp(`DP synthesis run ${runId}`) }).check();
    await form.getByLabel('Members per target').fill('40');
    await form.getByLabel('Canaries').fill('32');
    await form.getByRole('button', { name: 'Start audit' }).click();
    const result = section('Audit result');
    await expect.poll(async () => (await result.count()) > 0 && (await result.getByRole('button', { name: 'Export report (HTML)' }).count()) > 0, SLOW).toBe(true);
    const baseline = await result.getByRole('table', { name: 'metrics of plain 4-shot prompt of private records' }).textContent();
    expect(baseline).toMatch(/label-probability40 \/ 40/);
    expect(await result.getByRole('table', { name: `metrics of DP synthesis run ${runId}` }).textContent()).toMatch(/repeat-rouge-l/);
    expect(await result.getByLabel('privacy of plain 4-shot prompt of private records').textContent()).toMatch(/Empirical ε ≥ \d\.\d{3}.*accounted ε ≤ ∞/);
    expect(await result.getByLabel(`privacy of DP synthesis run ${runId}`).textContent()).toMatch(/Empirical ε ≥ \d\.\d{3}.*accounted ε ≤ (1\.00|0\.99)/);
    const roc = result.getByRole('figure', { name: 'ROC curves, linear axes' });
    expect(await roc.textContent()).toMatch(/random guess/);
    expect(await roc.locator('path').count()).toBeGreaterThan(2);
    expect(await result.getByRole('figure', { name: 'ROC curves, log axes' }).count()).toBe(1);
    const past = section('Past audits');
    expect(await past.getByRole('table', { name: 'past audits' }).textContent()).toMatch(/succeeded/);
    expect(await past.getByRole('figure', { name: /Targets compared/ }).count()).toBe(1);
  }, 400_000);

  it('exports the HTML report', async () => {
    const download = app.page.waitForEvent('download');
    await section('Audit result').getByRole('button', { name: 'Export report (HTML)' }).click();
    const file = await (await download).path();
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('Empirical ε ≥');
    expect(html).toContain(`DP synthesis run ${runId}`);
  });
});
