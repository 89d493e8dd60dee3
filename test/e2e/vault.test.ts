/**
 * The Vault page in Chromium through the real bridge: load the SpamAssassin sample from the
 * UI, search and filter the virtualised table, sort it and edit a label inline from the
 * keyboard, open another record and redact its e-mail addresses, hard-delete a third record
 * (with compaction), rescan the dataset's PII (a job, from the keyboard: its summary agrees
 * with vault.stats), then reload the page and see every change persisted — in the UI and
 * through the API. Then create a dataset in the dialog, import a small CSV into it
 * (preview, mapping, job, report with duplicate and bad-row line numbers), export it as
 * JSONL, and delete it. A generation dataset offers no label edit. Failed API calls and
 * console errors fail the test (harness).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, failOnProblems, startApp, type AppSession } from './harness';

const SLOW = { timeout: 60_000, interval: 200 };
const QUICK = { timeout: 15_000, interval: 50 };
const DATASET = 'SpamAssassin sample';
/** Header line 1; the quoted text of line 3 runs on to line 4; line 6 repeats line 2; line 7's label is not in the set; line 8 has no text. */
const CSV = [
  'text,label,who',
  '"Refund for invoice 1234, please",billing,alice',
  '"My laptop will not boot',
  'after the update",tech,bob',
  'Password reset link expired,tech,carol',
  '"Refund for invoice 1234, please",billing,dave',
  'Charge appeared twice,refunds,erin',
  ',billing,frank',
  'Call me at 555-0100 about the bill,billing,gina',
].join('\r\n');

describe.runIf(chromiumAvailable())('Vault page (Chromium, browser mode)', () => {
  let app: AppSession;
  let total: number;
  let edited: number;
  let redacted: number;
  let deleted: number;
  let fileDir: string;

  const region = (name: string) => app.page.getByRole('region', { name, exact: true });
  const records = () => region('Records');
  const grid = () => records().getByRole('grid', { name: 'records' });
  const count = () => records().getByRole('status', { name: 'record count' }).textContent();
  const row = (id: number) => grid().getByTestId(`record-row-${id}`);
  const drawer = (id: number) => app.page.getByRole('dialog', { name: `Record ${id}` });
  /** The first record matching `filter`, other than those in `except` (each step gets a record of its own). */
  const firstRowId = async (filter: object, except: number[] = []) =>
    (await app.call('vault.records', { dataset: DATASET, filter, limit: except.length + 1 })).rows.map((r) => r.id).find((id) => !except.includes(id))!;
  const matching = async (filter: object) => (await app.call('vault.records', { dataset: DATASET, filter, limit: 1 })).total;
  const choose = async (scope: Locator, filter: string, option: string) => {
    await scope.getByRole('combobox', { name: filter }).click();
    await app.page.getByRole('option', { name: option, exact: true }).click();
    if (await app.page.getByRole('listbox').count()) await app.page.keyboard.press('Escape'); // a multiple select stays open
  };

  beforeAll(async () => {
    fileDir = mkdtempSync(join(tmpdir(), 'veil-e2e-files-'));
    writeFileSync(join(fileDir, 'tickets.csv'), CSV);
    app = await startApp();
    await app.page.setViewportSize({ width: 1400, height: 1000 });
    await app.open('/vault');
  }, 120_000);
  failOnProblems(() => app);
  afterAll(async () => {
    await app?.close();
    rmSync(fileDir, { recursive: true, force: true });
  });

  it('loads the sample dataset from the UI, with its charts and record count', async () => {
    await app.page.getByRole('button', { name: /Load sample dataset/ }).click();
    await app.page.getByRole('menuitem', { name: /SpamAssassin/ }).click();
    await expect.poll(() => region(`Dataset: ${DATASET}`).count(), SLOW).toBe(1);
    total = (await app.call('vault.listDatasets', {})).find((d) => d.name === DATASET)!.counts.total;
    expect(total).toBeGreaterThan(1000);
    await expect.poll(count, QUICK).toBe(`${total.toLocaleString('en-US')} records`);
    for (const chart of ['Label distribution per split', 'Split sizes', 'Records with PII, by kind']) await expect.poll(() => app.page.getByRole('figure', { name: chart }).count(), QUICK).toBe(1);
    expect(await app.page.getByRole('list', { name: 'datasets' }).textContent()).toContain(DATASET);
    // A second load refuses, as the CLI does, instead of creating "SpamAssassin sample 2".
    await app.page.getByRole('button', { name: /Load sample dataset/ }).click();
    await app.page.getByRole('menuitem', { name: /SpamAssassin/ }).click();
    await expect.poll(() => app.page.getByText(`The sample is already loaded as “${DATASET}”`).count(), QUICK).toBe(1);
    expect((await app.call('vault.listDatasets', {})).filter((d) => d.name.startsWith(DATASET))).toHaveLength(1);
  });

  it('scrolls the virtualised table, fetching rows page by page', async () => {
    expect(await grid().getByRole('row').count()).toBeLessThan(80);
    await grid().evaluate((el) => (el.scrollTop = el.scrollHeight));
    const lastId = (await app.call('vault.records', { dataset: DATASET, offset: total - 1, limit: 1 })).rows[0].id;
    await expect.poll(() => row(lastId).count(), QUICK).toBe(1);
    await grid().evaluate((el) => (el.scrollTop = 0));
  });

  it('searches the text (debounced) and filters by label and PII kind', async () => {
    await records().getByLabel('Search text').fill('money');
    const found = await matching({ search: 'money' });
    expect(found).toBeGreaterThan(10);
    await expect.poll(count, QUICK).toBe(`${found.toLocaleString('en-US')} records match`);
    // The hits are marked in the text cells.
    await expect.poll(() => grid().locator('mark').first().textContent(), QUICK).toMatch(/^money$/i);

    await choose(records(), 'Label', 'spam');
    const spam = await matching({ search: 'money', labels: ['spam'] });
    expect(spam).toBeLessThan(found);
    await expect.poll(count, QUICK).toBe(`${spam.toLocaleString('en-US')} records match`);
    const labels = await grid().locator('[data-testid^="record-row-"] [aria-label^="Edit label"]').allTextContents();
    expect(labels.length).toBeGreaterThan(0);
    expect(new Set(labels)).toEqual(new Set(['spam']));

    await records().getByRole('button', { name: 'Clear filters' }).click();
    await choose(records(), 'PII', 'email');
    await expect.poll(count, QUICK).toBe(`${(await matching({ pii: ['email'] })).toLocaleString('en-US')} records match`);
    await records().getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(count, QUICK).toBe(`${total.toLocaleString('en-US')} records`);
  });

  it('sorts from the keyboard: the header is reachable with Tab and keeps the focus as the table starts afresh', async () => {
    const focused = () => app.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
    const sortedBy = (column: string) => grid().getByRole('columnheader', { name: column }).getAttribute('aria-sort');
    await grid().focus();
    await app.page.keyboard.press('Tab');
    expect(await focused()).toBe('Select every matching record');
    await app.page.keyboard.press('Tab');
    await app.page.keyboard.press('Tab');
    expect(await focused()).toBe('Label');
    await app.page.keyboard.press('Enter');
    await expect.poll(() => sortedBy('Label'), QUICK).toBe('ascending');
    await expect.poll(focused, QUICK).toBe('Label');
    const firstHam = await firstRowId({ labels: ['ham'] });
    await expect.poll(() => grid().locator('[data-testid^="record-row-"]').first().getAttribute('data-testid'), QUICK).toBe(`record-row-${firstHam}`);
    await app.page.keyboard.press('Shift+Tab');
    await app.page.keyboard.press('Enter');
    await expect.poll(() => sortedBy('ID'), QUICK).toBe('ascending');
    await expect.poll(focused, QUICK).toBe('ID');
    expect(await sortedBy('Label')).toBeNull();
  });

  it('edits a label inline from the keyboard (E, arrow, Enter)', async () => {
    edited = await firstRowId({ labels: ['ham'] });
    expect(edited).toBe(await firstRowId({}));
    await grid().focus();
    await app.page.keyboard.press('e');
    await expect.poll(() => app.page.getByRole('listbox').count(), QUICK).toBe(1);
    await app.page.keyboard.press('ArrowUp');
    await app.page.keyboard.press('Enter');
    await expect.poll(async () => (await app.call('vault.record', { id: edited })).label, QUICK).toBe('spam');
    await expect.poll(() => row(edited).getByRole('button', { name: `Edit label of record ${edited}` }).textContent(), QUICK).toBe('spam');
  });

  it('opens another record, highlights its PII and redacts the e-mail addresses', async () => {
    await choose(records(), 'PII', 'email');
    redacted = await firstRowId({ pii: ['email'] }, [edited]);
    await row(redacted).getByRole('gridcell').nth(2).click();
    const panel = drawer(redacted);
    await expect.poll(() => panel.locator('mark[data-pii~="email"]').count(), QUICK).toBeGreaterThan(0);
    await panel.getByRole('button', { name: 'Redact email' }).click();
    await expect.poll(() => panel.getByRole('list', { name: 'history' }).textContent(), QUICK).toMatch(/Redacted \d+ spans? \(email\)/);
    expect(await panel.getByLabel('record text').textContent()).toContain('[EMAIL]');
    expect(await panel.locator('mark[data-pii~="email"]').count()).toBe(0);
    const stored = await app.call('vault.record', { id: redacted });
    expect(stored.text).toContain('[EMAIL]');
    expect(stored.pii.some((f) => f.kind === 'email')).toBe(false);
    expect(stored.history.map((h) => h.action)).toEqual(['redact']);
    await panel.getByRole('button', { name: 'Close record' }).click();
    await records().getByRole('button', { name: 'Clear filters' }).click();
  });

  it('hard-deletes a selected record after a confirmation that offers compaction', async () => {
    deleted = await firstRowId({}, [edited, redacted]);
    await row(deleted).getByRole('checkbox', { name: `Select record ${deleted}` }).check();
    await records().getByRole('toolbar', { name: 'bulk actions' }).getByRole('button', { name: 'Delete…' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Delete 1 record?' });
    expect(await dialog.textContent()).toContain('cannot be undone');
    expect(await dialog.getByRole('checkbox', { name: /Compact the vault file/ }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await expect.poll(count, QUICK).toBe(`${(total - 1).toLocaleString('en-US')} records`);
    expect(await row(deleted).count()).toBe(0);
    await expect(app.call('vault.record', { id: deleted })).rejects.toThrow(/no record/);
  });

  it('rescans the PII from the dataset toolbar by keyboard: a job whose summary agrees with vault.stats', async () => {
    const before = await app.call('vault.stats', { dataset: DATASET });
    const rescan = region(`Dataset: ${DATASET}`).getByRole('button', { name: 'Rescan PII' });
    await rescan.focus();
    await app.page.keyboard.press('Enter');
    const dialog = app.page.getByRole('dialog', { name: `Rescan PII in ${DATASET}` });
    const summary = dialog.getByRole('region', { name: 'PII rescan summary' });
    await expect.poll(() => summary.count(), SLOW).toBe(1);
    expect(await dialog.getByRole('progressbar', { name: 'Rescan progress' }).getAttribute('aria-valuenow')).toBe('100');
    // Every record was scanned when written (the redacted one again after its edit): nothing changes.
    expect(await summary.getByRole('alert').textContent()).toMatch(new RegExp(`^Scanned ${(total - 1).toLocaleString('en-US')} records in \\d+\\.\\d s: no record changed\\.$`));
    const stats = await app.call('vault.stats', { dataset: DATASET });
    expect(stats.pii).toEqual(before.pii);
    expect(stats.pii.length).toBeGreaterThan(0);
    const findings = await summary.getByRole('table', { name: 'records with each kind of PII' }).getByRole('row').allTextContents();
    expect(findings).toEqual(stats.pii.map((p) => `${p.kind}${p.records.toLocaleString('en-US')}`));
    const job = (await app.call('jobs.list', {})).find((j) => j.kind === 'vault.scanPii');
    expect(job).toMatchObject({ status: 'succeeded', result: { records: total - 1, changed: 0, pii: stats.pii } });
    expect((await app.call('vault.record', { id: redacted })).history.map((h) => h.action)).toEqual(['redact']);

    // Close has the focus once the job is done; closing gives it back to the button.
    await app.page.keyboard.press('Enter');
    await expect.poll(() => dialog.count(), QUICK).toBe(0);
    await expect.poll(() => rescan.evaluate((el) => el === document.activeElement), QUICK).toBe(true);
  });

  it('shows every change after a reload', async () => {
    await app.page.reload();
    await expect.poll(count, SLOW).toBe(`${(total - 1).toLocaleString('en-US')} records`);
    expect(await region(`Dataset: ${DATASET}`).count()).toBe(1);
    await expect.poll(() => row(edited).getByRole('button', { name: `Edit label of record ${edited}` }).textContent(), QUICK).toBe('spam');
    expect(await row(deleted).count()).toBe(0);

    await records().getByLabel('Search text').fill('');
    await choose(records(), 'PII', 'email');
    await expect.poll(() => row(redacted).count(), QUICK).toBe(0);
    await records().getByRole('button', { name: 'Clear filters' }).click();
    await row(edited).getByRole('gridcell').nth(2).click();
    await expect.poll(() => drawer(edited).getByRole('list', { name: 'history' }).textContent(), QUICK).toContain('label ham → spam');
    await app.page.keyboard.press('Escape');

    const stats = await app.call('vault.stats', { dataset: DATASET });
    expect(stats.splits.private + stats.splits.public + stats.splits.heldOut).toBe(total - 1);
    expect((await app.call('vault.record', { id: edited })).label).toBe('spam');
    expect((await app.call('vault.record', { id: redacted })).text).toContain('[EMAIL]');
  });

  it('creates a dataset in the dialog and imports a CSV: preview, mapping, progress, report', async () => {
    await app.page.getByRole('button', { name: 'New dataset' }).click();
    const create = app.page.getByRole('dialog', { name: 'New dataset' });
    await create.getByLabel('Name').fill('Tickets');
    await create.getByLabel('Public label set').fill('billing, tech');
    await choose(create, 'Privacy unit', 'data subject');
    await create.getByLabel('Records per subject (cap)').fill('2');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => region('Dataset: Tickets').count(), QUICK).toBe(1);
    expect(await app.call('vault.listDatasets', {})).toContainEqual(expect.objectContaining({ name: 'Tickets', labels: ['billing', 'tech'], privacyUnit: 'subject', subjectCap: 2 }));

    await region('Dataset: Tickets').getByRole('button', { name: 'Import file…' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Import into Tickets' });
    // Keyboard first: the path field has the focus once the dialog has opened.
    await expect.poll(() => dialog.getByLabel('File path').evaluate((el) => el === document.activeElement), QUICK).toBe(true);
    await dialog.getByLabel('File path').fill(join(fileDir, 'tickets.csv'));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => dialog.getByRole('status', { name: 'detected format' }).textContent(), QUICK).toMatch(/^csv · delimiter ","/);
    expect(await dialog.getByRole('table', { name: 'import preview' }).textContent()).toContain('Password reset link expired');
    await choose(dialog, 'Subject column', 'who');
    // A random split with a seed: shares that do not add up to 100 % block the import.
    await dialog.getByLabel(/at random into private \/ public \/ held-out/).check();
    await dialog.getByLabel('Private %').fill('0');
    await expect.poll(() => dialog.getByRole('alert').textContent(), QUICK).toBe('The shares add up to 20 %, not 100 %.');
    expect(await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel('Public %').fill('100');
    await dialog.getByLabel('Held-out %').fill('0');
    await dialog.getByLabel('Seed (optional)').fill('tickets');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const report = dialog.getByRole('region', { name: 'import report' });
    await expect.poll(() => report.count(), SLOW).toBe(1);
    expect(await report.textContent()).toMatch(/Imported 4 of \d+ rows.*Duplicates skipped: 1\. Bad rows: 2\./);
    expect(await report.textContent()).toMatch(/Duplicate lines[^:]*: 6/);
    const bad = (await dialog.getByRole('table', { name: 'bad rows' }).getByRole('row').allTextContents()).slice(1);
    expect(bad).toEqual([expect.stringMatching(/^7.*not in the dataset's label set/), expect.stringMatching(/^8no text/)]);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await expect.poll(count, QUICK).toBe('4 records');
    const rows = (await app.call('vault.records', { dataset: 'Tickets' })).rows;
    expect(rows.map((r) => r.subject)).toEqual(['alice', 'bob', 'carol', 'gina']);
    expect(rows.map((r) => r.split)).toEqual(['public', 'public', 'public', 'public']); // the random split, 0 / 100 / 0
    expect(rows[1].text).toBe('My laptop will not boot\r\nafter the update'); // the quoted line break, as written
  });

  it('exports the dataset as JSONL, then deletes it with compaction', async () => {
    const target = join(fileDir, 'tickets.jsonl');
    await region('Dataset: Tickets').getByRole('button', { name: 'Export…' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Export Tickets' });
    await dialog.getByLabel('Export file path').fill(target);
    // The format follows the extension typed.
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Format' }).textContent(), QUICK).toBe('JSONL');
    expect(await dialog.getByText('Absolute path on this machine, ending in .jsonl').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(() => dialog.textContent(), QUICK).toContain('Wrote 4 records');
    expect(readFileSync(target, 'utf8').trim().split('\n').map((l) => JSON.parse(l).subject)).toEqual(['alice', 'bob', 'carol', 'gina']);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await region('Dataset: Tickets').getByRole('button', { name: 'Delete dataset…' }).click();
    await app.page.getByRole('dialog', { name: 'Delete dataset Tickets?' }).getByRole('button', { name: 'Delete permanently' }).click();
    await expect.poll(async () => (await app.call('vault.listDatasets', {})).map((d) => d.name), QUICK).toEqual([DATASET]);
    await expect.poll(() => region(`Dataset: ${DATASET}`).count(), QUICK).toBe(1);
  });

  it('offers no label edit on a generation dataset, whose records have no label', async () => {
    // Made elsewhere (the API), it arrives by event; it may take the id of the deleted Tickets, and still shows.
    const { id } = await app.call('vault.createDataset', { name: 'Summaries', task: 'generation' });
    await app.call('vault.addRecords', { dataset: id, records: [{ text: 'Long note one', output: 'Short one' }, { text: 'Long note two', output: 'Short two' }] });
    await app.page.getByRole('list', { name: 'datasets' }).getByText('Summaries').click();
    await expect.poll(count, QUICK).toBe('2 records');
    expect(await grid().getByRole('button', { name: /^Edit label/ }).count()).toBe(0);
    expect(await records().textContent()).not.toContain('E edits the label');
    await grid().focus();
    await app.page.keyboard.press('e');
    await app.page.keyboard.press('F2');
    await app.page.waitForTimeout(200); // an editor would open at once; give it time to show if it does
    expect(await app.page.getByRole('listbox').count()).toBe(0);
    await app.call('vault.deleteDataset', { dataset: id });
    await expect.poll(() => region(`Dataset: ${DATASET}`).count(), QUICK).toBe(1);
  });
});
