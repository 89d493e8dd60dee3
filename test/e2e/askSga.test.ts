/**
 * Public-data-assisted answering on the Ask page in Chromium through the real bridge (issue 15):
 * a generation dataset with public examples defaults to semantic group aggregation; its
 * settings are on the form; a query is priced in ρ, asked, answered with its public candidates
 * shown (the released one marked) and the ledger charged. A dataset without public examples
 * takes another dataset's public split through the page's control.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, startApp, type AppSession } from './harness';

const SLOW = { timeout: 120_000, interval: 200 };
const SYMPTOMS = ['fever', 'cough', 'headache', 'rash', 'nausea', 'fatigue'];
const note = (i: number, split: 'private' | 'public') => ({
  text: `Patient ${split}${i} reports ${SYMPTOMS[i % 6]} and ${SYMPTOMS[(i + 2) % 6]}.`,
  output: `${SYMPTOMS[i % 6]} and ${SYMPTOMS[(i + 2) % 6]}`,
  split,
});

describe.runIf(chromiumAvailable())('Ask page: semantic group aggregation (Chromium, browser mode)', () => {
  let app: AppSession;
  const section = (name: string) => app.page.getByRole('region', { name });
  const chooseDataset = async (name: string) => {
    await section('Settings').getByLabel('Dataset').click();
    await app.page.getByRole('option', { name }).click();
  };

  beforeAll(async () => {
    app = await startApp();
    await app.call('vault.createDataset', { name: 'Notes', task: 'generation' });
    await app.call('vault.addRecords', { dataset: 'Notes', records: [...Array.from({ length: 40 }, (_, i) => note(i, 'private')), ...Array.from({ length: 8 }, (_, i) => note(i, 'public'))] });
    await app.call('budget.set', { dataset: 'Notes', epsilon: 6, delta: 1e-6 });
    await app.call('vault.createDataset', { name: 'Bare', task: 'generation' });
    await app.call('vault.addRecords', { dataset: 'Bare', records: Array.from({ length: 10 }, (_, i) => note(i + 50, 'private')) });
    await app.open('/ask');
  }, 120_000);
  failOnProblems(() => app);
  afterAll(async () => app?.close());

  it('defaults to SGA for a generation dataset with public examples and prices it in ρ', async () => {
    await chooseDataset('Notes');
    const settings = section('Settings');
    await expect.poll(() => settings.textContent(), SLOW).toContain('Public examples: its own public split (8 records).');
    expect(await settings.getByRole('combobox', { name: 'Aggregation' }).textContent()).toContain('Default for the task (sga)');
    const sga = settings.getByRole('group', { name: 'semantic group aggregation settings' });
    await sga.getByLabel('Candidates k').fill('0');
    await settings.getByLabel('Questions (one per line)').fill('Patient reports fever and cough.');
    await settings.getByRole('button', { name: 'Price' }).click();
    await expect.poll(() => sga.textContent(), SLOW).toContain('a whole number from 1 to 16');
    await sga.getByLabel('Candidates k').fill('3');
    await sga.getByLabel('Cluster depth').fill('2');
    await settings.getByLabel('ε of the batch').fill('2');
    await settings.getByLabel('Ensemble (teachers)').fill('6');
    await settings.getByLabel('Questions (one per line)').press('Tab'); // keyboard: Price is a submit button
    await settings.getByRole('button', { name: 'Price' }).focus();
    await app.page.keyboard.press('Enter');
    const plan = settings.getByRole('table', { name: 'planned cost' });
    await expect.poll(() => plan.textContent(), SLOW).toMatch(/1 by sga.*ρ per query = /);
  });

  it('asks: the answer with its public candidates, the released one marked, and the ledger charged', async () => {
    await section('Settings').getByRole('button', { name: 'Ask', exact: true }).click();
    const answers = section('Answers');
    await expect.poll(async () => (await answers.count()) > 0 && (await answers.textContent())?.includes('succeeded'), SLOW).toBe(true);
    const table = answers.getByRole('table', { name: 'answers' });
    expect(await table.textContent()).toContain('Public candidates (largest cluster first)');
    const candidates = table.getByRole('list', { name: 'public candidates' });
    expect(await candidates.getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await candidates.textContent()).toContain('— released');
    expect(await answers.getByRole('status').textContent()).toMatch(/Charged in the ledger: ε ≤ (2\.000|1\.99\d)/);
    const summary = await app.call('ledger.summary', { dataset: 'Notes' });
    expect(summary.reservations.committed).toBe(2); // the noisy size of the private split, then the batch
    expect(summary.spent.epsilon.upper).toBeGreaterThan(1.9);
  }, 180_000);

  it('a dataset without public examples takes another dataset’s public split from the page', async () => {
    await chooseDataset('Bare');
    const examples = section('Settings').getByRole('group', { name: 'public examples' });
    await expect.poll(() => examples.textContent(), SLOW).toContain('No public examples');
    expect(await section('Settings').getByRole('combobox', { name: 'Aggregation' }).textContent()).toContain('(embedding)');
    await examples.getByRole('combobox', { name: 'Public examples from dataset' }).click();
    await app.page.getByRole('option', { name: 'Notes' }).click();
    await examples.getByRole('button', { name: 'Use its public split' }).click();
    await expect.poll(() => examples.textContent(), SLOW).toContain('the public split of “Notes” (8 records');
    expect(await section('Settings').getByRole('combobox', { name: 'Aggregation' }).textContent()).toContain('(sga)');
    expect((await app.call('publicSource.get', { dataset: 'Bare' })).from).toBe('Notes');
  }, 60_000);
});
