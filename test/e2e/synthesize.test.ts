/**
 * The Synthesize page in Chromium through the real bridge: on the sample e-mail dataset
 * with a budget, fill the form from a saved plan, price and generate a 4-shot DP prompt
 * with the reference learner after a free preview on the public split, watch the live progress, copy and export it, verify its
 * certificate, and see the ledger charged.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, type AppSession } from './harness';
import { startWithSampleBudget } from './sampleApp';

const SLOW = { timeout: 120_000, interval: 200 };

describe.runIf(chromiumAvailable())('Synthesize page (Chromium, browser mode)', () => {
  let app: AppSession;
  const section = (name: string) => app.page.getByRole('region', { name });

  beforeAll(async () => {
    app = await startWithSampleBudget();
    const workload = { kind: 'synth' as const, method: 'dp-few-shot-gaussian' as const, shots: 4, teachers: 10, perTeacher: 2, topK: 100, maxTokens: 24, rounds: 2 };
    await app.call('plan.save', { name: 'four shots', request: { dataset: 'Mail sample', epsilon: 2, workload } });
    await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.bridge.url).origin });
    await app.open('/synthesize');
  }, 120_000);
  failOnProblems(() => app);
  afterAll(async () => app?.close());

  it('names the model, explains ε and refuses up front a job priced over the budget', async () => {
    const notice = app.page.getByTestId('active-model');
    await expect.poll(() => notice.textContent({ timeout: 5_000 }).catch((e: Error) => e.message), SLOW).toMatch(/Model: reference learner — a statistical baseline, not a language model/);
    expect(await notice.getByRole('link', { name: 'Load a GGUF on the Models page' }).getAttribute('href')).toBe('#/models');
    expect(await app.page.getByTestId('epsilon-guide').textContent()).toMatch(/ε ≤ 1 is a strong guarantee, ε ≤ 8 a moderate one.*δ .*≪ 1\/N/);
    const settings = section('Settings');
    await settings.getByLabel('Use saved plan').click();
    await app.page.getByRole('option', { name: /four shots/ }).click();
    await settings.getByLabel('Total ε').fill('7');
    await settings.getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => settings.getByRole('table', { name: 'planned cost' }).textContent(), SLOW).toMatch(/Composition is not a sum/);
    expect(await settings.getByRole('button', { name: 'Generate' }).isDisabled()).toBe(true);
    await expect.poll(() => settings.textContent(), SLOW).toMatch(/Over budget: after this job ε would be [\d.]+, above the cap 6\.000/);
    await settings.getByLabel('Total ε').fill('2'); // as the saved plan set it, for the tests below
  }, 180_000);

  it('fills the form from a saved plan and prices the 4-shot job against the budget', async () => {
    const settings = section('Settings');
    await settings.getByLabel('Use saved plan').click();
    await app.page.getByRole('option', { name: /four shots/ }).click();
    expect(await settings.getByLabel('Total ε').inputValue()).toBe('2');
    expect(await settings.getByLabel('Shots').inputValue()).toBe('4');
    await settings.getByRole('button', { name: 'Advanced: ensemble and instruction' }).click();
    expect(await settings.getByLabel('Max tokens T_max').inputValue()).toBe('24');
    const labels = settings.getByRole('group', { name: 'Labels' });
    expect(await labels.getByRole('checkbox', { name: 'spam' }).isChecked()).toBe(true);
    expect(await labels.getByRole('checkbox', { name: 'ham' }).isChecked()).toBe(true);
    // Generate spends the budget: it waits until the settings are priced, and again after any change.
    const generate = settings.getByRole('button', { name: 'Generate' });
    expect(await generate.isDisabled()).toBe(true);
    await settings.getByRole('button', { name: 'Price' }).click();
    const plan = settings.getByRole('table', { name: 'planned cost' });
    await expect.poll(() => plan.textContent(), SLOW).toMatch(/Gaussian σ = /);
    expect(await plan.textContent()).toMatch(/0 spent of 6/);
    expect(await plan.textContent()).toMatch(/Pool sizesexact here, shown to you only; the job first releases noisy sizes and charges them as their own ledger entry \(ε = 0\.10/);
    expect(await generate.isDisabled()).toBe(false);
    await settings.getByLabel('Shots').fill('5');
    expect(await generate.isDisabled()).toBe(true);
    expect(await plan.count()).toBe(0);
    await settings.getByLabel('Shots').fill('4');
    await settings.getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => generate.isDisabled(), SLOW).toBe(false);
  });

  it('previews the priced settings on the public split for free: demonstrations and utility, no ledger entry', async () => {
    const preview = app.page.getByRole('region', { name: 'preview on public data' });
    const entries = await app.call('ledger.entries', { dataset: 'Mail sample' });
    await preview.getByRole('button', { name: 'Preview on public data' }).click();
    await expect.poll(() => preview.getByTestId('preview-summary').textContent().catch(() => ''), SLOW).toMatch(/^Preview of “Mail sample” at ε = 2 \(4 shots, σ = [\d.]+, .*\d+ public spam, \d+ public ham: nothing was charged\.$/);
    expect(await preview.getByRole('table', { name: 'synthetic demonstrations' }).getByRole('row').count()).toBe(5);
    expect(await preview.getByRole('table', { name: 'utility' }).textContent()).toMatch(/DP synthetic prompt[\d.]+ %[\d.]+ %Zero-shot/);
    expect(await preview.getByTestId('utility-verdict').textContent()).toMatch(/^The DP prompt (does|is no) better/);
    expect(await app.call('ledger.entries', { dataset: 'Mail sample' })).toEqual(entries);
    expect(await section('Settings').getByRole('button', { name: 'Generate' }).isDisabled()).toBe(false); // still priced
  }, 180_000);

  it('starts the free utility-against-ε curve with progress, and cancels it: no ledger entry', async () => {
    const curve = app.page.getByRole('region', { name: 'utility against epsilon' });
    const entries = await app.call('ledger.entries', { dataset: 'Mail sample' });
    await curve.getByRole('button', { name: 'Utility against ε (free)' }).click();
    const cancel = curve.getByRole('button', { name: 'Cancel curve' });
    await expect.poll(() => cancel.isVisible(), SLOW).toBe(true);
    await cancel.click();
    await expect.poll(() => curve.textContent(), SLOW).toMatch(/Utility curve: .*cancelled/);
    expect(await app.call('ledger.entries', { dataset: 'Mail sample' })).toEqual(entries);
  }, 180_000);

  it('generates with live progress, then shows the demonstrations and the certificate', async () => {
    const settings = section('Settings');
    // The job can finish within a poll interval, so every text the progress group shows is recorded as it renders.
    await app.page.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { progressSeen: seen });
      new MutationObserver(() => {
        const group = document.querySelector('[aria-label="generation progress"]');
        const text = group && `${group.textContent}${group === document.activeElement ? ' [focused]' : ''}`;
        if (text && text !== seen.at(-1)) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await settings.getByRole('button', { name: 'Generate' }).click();
    const result = section('Result');
    await expect.poll(async () => (await result.count()) > 0 && (await result.textContent())?.includes('succeeded'), SLOW).toBe(true);
    const seen = await app.page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen.some((text) => /Demonstration [1-4] of 4 · \d+ of at most \d+ token steps/.test(text))).toBe(true);
    // Generate was disabled as the job started: the focus went to the progress, not to the page.
    expect(seen.some((text) => text.endsWith(' [focused]'))).toBe(true);
    const rows = result.getByRole('table', { name: 'synthetic demonstrations' }).getByRole('row');
    expect(await rows.count()).toBe(5);
    expect(await rows.nth(1).textContent()).toMatch(/^spam/);
    const certificate = await result.getByRole('table', { name: 'privacy certificate' }).textContent();
    expect(certificate).toMatch(/ε = 2\.000|ε = 1\.99/);
    expect(certificate).toMatch(/Pool sizesnoisy counts \(discrete Laplace, ε = 0\.1\), charged first as their own ledger entry #\d+/);
  }, 180_000);

  it('copies the DP prompt to the clipboard', async () => {
    const result = section('Result');
    await result.getByRole('button', { name: 'Copy Markdown' }).click();
    await expect.poll(() => result.getByRole('status').textContent(), SLOW).toContain('Copied the Markdown to the clipboard.');
    const copied = await app.page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(await result.getByLabel('rendered prompt').textContent());
    expect(copied).toMatch(/<!-- veil\.dp-prompt\/v1: \(ε=/);
  });

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

    // Two committed charges: the noisy pool sizes (first, their own entry), then the job.
    const summary = await app.call('ledger.summary', { dataset: 'Mail sample' });
    expect(summary.reservations.committed).toBe(2);
    const reserved = (await app.call('ledger.entries', { dataset: 'Mail sample' })).filter((e) => e.type === 'reserve');
    expect(reserved.map((e) => e.event?.kind)).toEqual(['pure', 'composed']);
    expect(summary.spent.epsilon.upper).toBeGreaterThan(1.9);
    await section('Settings').getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => section('Settings').getByRole('table', { name: 'planned cost' }).textContent(), SLOW).toMatch(/[12]\.\d+ spent of 6/);
  }, 120_000);
});
