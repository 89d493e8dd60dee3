/**
 * The Augment page in Chromium through the real bridge: the sample e-mails under a budget (ε 6);
 * a dataset without public examples is refused at Price in the service's words; over the cap the
 * plan warns and Augment is refused with nothing charged; then a plan (ε, δ, what is released, M,
 * the budget after) with nothing reserved, a run with the reference learner, the ledger charged
 * once, the run listed with its certificate and examples written, the examples in the public
 * split tagged 'generated', and the downloaded certificate verified on the page; a long job
 * followed live and cancelled, its reservation still charged and nothing added.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, valueOf, type AppSession } from './harness';
import { SAMPLE, startWithSampleBudget } from './sampleApp';

const SLOW = { timeout: 120_000, interval: 200 };

describe.runIf(chromiumAvailable())('Augment page (Chromium, browser mode)', () => {
  let app: AppSession;
  const section = (name: string) => app.page.getByRole('region', { name });
  const settings = () => section('Settings');
  const chooseDataset = async (name: string) => {
    await settings().getByLabel('Dataset').click();
    await app.page.getByRole('option', { name, exact: true }).click();
  };
  const reservations = async () => (await app.call('ledger.entries', { dataset: SAMPLE })).filter((e) => e.type === 'reserve');

  beforeAll(async () => {
    app = await startWithSampleBudget();
    await app.call('vault.createDataset', { name: 'Private only', task: 'generation' });
    await app.call('vault.addRecords', { dataset: 'Private only', records: Array.from({ length: 5 }, (_, i) => ({ text: `A private note ${i}.`, split: 'private' as const })) });
    await app.call('budget.set', { dataset: 'Private only', epsilon: 1, delta: 1e-6 });
    await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.bridge.url).origin });
    await app.open('/augment');
  }, 120_000);
  failOnProblems(() => app);
  afterAll(async () => app?.close());

  it('refuses at Price a dataset without public examples, in the service’s words, keeping the form', async () => {
    app.allowProblems(/\/api\/call\/augment\.plan\b/);
    await chooseDataset('Private only');
    await settings().getByLabel('Examples to write (M)').fill('3');
    await settings().getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => settings().getByRole('alert').first().textContent(), SLOW).toContain('"Private only" has no public examples');
    expect(await settings().getByLabel('Examples to write (M)').inputValue()).toBe('3');
    expect(await settings().getByRole('button', { name: 'Augment', exact: true }).isDisabled()).toBe(true);
  });

  it('warns over the cap and the service refuses the job with nothing charged', async () => {
    app.allowProblems(/\/api\/call\/augment\.start\b/);
    await chooseDataset(SAMPLE);
    await settings().getByLabel('ε of the release').fill('8');
    await settings().getByLabel('ε of the release').press('Enter'); // keyboard: Enter prices
    await expect.poll(() => settings().textContent(), SLOW).toMatch(/above the cap 6: a job like it will be refused/);
    await settings().getByRole('button', { name: 'Augment', exact: true }).click();
    await expect.poll(() => settings().textContent(), SLOW).toMatch(/privacy budget exceeded for dataset "Mail sample"/);
    expect(await reservations()).toEqual([]);
  }, 120_000);

  it('plans with nothing reserved: ε, δ, what is released, M and the budget after', async () => {
    await settings().getByLabel('ε of the release').fill('0.5');
    await settings().getByLabel('Examples to write (M)').fill('3');
    await settings().getByRole('button', { name: 'Price' }).click();
    const plan = settings().getByRole('table', { name: 'planned cost' });
    await expect.poll(() => plan.count(), SLOW).toBe(1);
    expect(await valueOf(plan, 'ε charged').textContent()).toMatch(/^(0\.5000|0\.49\d\d) .* at δ = 1\.00e-6$/);
    expect(await valueOf(plan, 'Released').textContent()).toContain('noisy DPM centres and counts of the private split');
    expect(await valueOf(plan, 'Examples written').textContent()).toMatch(/^3 new examples into the public split, tagged generated/);
    expect(await valueOf(plan, 'Budget').textContent()).toMatch(/^0\.000 spent of 6\.000; after this job (0\.5000|0\.49\d\d)/);
    expect(await reservations()).toEqual([]);
  }, 120_000);

  it('augments: the ledger charged once, the run listed with its certificate and the examples written', async () => {
    await settings().getByRole('button', { name: 'Augment', exact: true }).click();
    const result = section('Result');
    await expect.poll(async () => (await result.count()) > 0 && (await result.textContent())?.includes('succeeded'), SLOW).toBe(true);
    await expect.poll(() => result.getByRole('status').first().textContent(), SLOW).toMatch(/Charged in the ledger: ε ≤ (0\.5000|0\.49\d\d) at δ = 1\.00e-6 \(entry #\d+\); \d examples added to the public split/);
    const certificate = result.getByRole('table', { name: 'augmentation certificate' });
    const counts = (await valueOf(certificate, 'Examples').textContent())?.match(/^(\d) of 3 requested added to the public split \((\d) not written\), tagged generated, augmentation-1$/);
    expect(counts).not.toBeNull();
    expect(Number(counts![1]) + Number(counts![2])).toBe(3);
    const examples = result.getByRole('table', { name: 'examples written' }).getByRole('row');
    await expect.poll(() => examples.count(), SLOW).toBeGreaterThan(1);
    const summary = await app.call('ledger.summary', { dataset: SAMPLE });
    expect(summary.reservations.committed).toBe(1);
    expect(await reservations()).toHaveLength(1);
    expect(summary.spent.epsilon.upper).toBeGreaterThan(0.45);
    const run = (await app.call('augment.list', { dataset: SAMPLE }))[0];
    expect(run.status).toBe('succeeded');
    expect(await examples.count()).toBe(run.added + 1);
    const tagged = await app.call('vault.records', { dataset: SAMPLE, filter: { tags: ['generated', 'augmentation-1'], splits: ['public'] }, limit: 10 });
    expect(tagged.total).toBe(run.added);
    expect(await section('Runs').getByRole('table', { name: 'augmentation runs' }).textContent()).toContain(`${run.added} of 3succeeded`);
  }, 240_000);

  it('downloads the veil.augmentation/v1 certificate, which verifies on the page, and copies it', async () => {
    const download = app.page.waitForEvent('download');
    await section('Result').getByRole('button', { name: /Download certificate/ }).click();
    const text = readFileSync((await (await download).path())!, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ format: 'veil.augmentation/v1', dataset: SAMPLE });
    const verifier = section('Verify a certificate');
    await verifier.getByLabel('Exported veil.augmentation/v1 JSON').fill(text);
    await verifier.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => verifier.textContent(), SLOW).toContain('The certificate is valid.');
    expect(await verifier.getByRole('list', { name: 'certificate checks' }).textContent()).toContain('generated counts');
    await section('Result').getByRole('button', { name: 'Copy certificate JSON' }).click();
    await expect.poll(() => section('Result').getByRole('status').last().textContent(), SLOW).toBe('Copied the certificate to the clipboard.');
    expect(await app.page.evaluate(() => navigator.clipboard.readText())).toBe(text);
  }, 120_000);

  it('follows a long job and cancels it: the run says the charge stays, nothing is added', async () => {
    const before = await app.call('vault.records', { dataset: SAMPLE, filter: { splits: ['public'] }, limit: 1 });
    await settings().getByLabel('Examples to write (M)').fill('500');
    await settings().getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => settings().getByRole('table', { name: 'planned cost' }).count(), SLOW).toBe(1);
    await settings().getByRole('button', { name: 'Augment', exact: true }).click();
    const progress = settings().getByRole('group', { name: 'augmentation progress' });
    await expect.poll(() => progress.getByRole('progressbar', { name: 'Augmentation progress' }).count(), SLOW).toBe(1);
    await progress.getByRole('button', { name: /^Cancel/ }).click();
    await expect.poll(() => progress.count(), SLOW).toBe(0);
    const result = section('Result');
    await expect.poll(() => result.textContent(), SLOW).toContain('cancelled; the reserved budget stays spent');
    expect(await reservations()).toHaveLength(2);
    expect((await app.call('augment.list', { dataset: SAMPLE }))[0]).toMatchObject({ status: 'cancelled', added: 0, certificate: null });
    expect((await app.call('vault.records', { dataset: SAMPLE, filter: { splits: ['public'] }, limit: 1 })).total).toBe(before.total);
  }, 240_000);
});
