/**
 * The import's batches (importWriter.ts): rows go in BATCH_ROWS at a time, several batches queued
 * behind the one SQLite is inserting. Which lines were duplicates is worked out from the ids a
 * batch took (no RETURNING), so duplicates are placed at a batch's first and last row, fill a
 * whole batch, and repeat records already in the dataset (a row skipped for any other reason fails
 * the import); every stored field must be exactly
 * what the file held (texts that need JSON escapes included), and a batch that fails stops the
 * import with nothing written, batches queued behind it included. The reading gives the event
 * loop a turn every few dozen rows, so SQLite's finished steps are answered while it reads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { BATCH_ROWS, createImport, RecordWriter } from '../../../electron/services/vault/import/importWriter';
import { piiKindsOf } from '../../../electron/services/vault/records';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import { scanPii } from '../../../electron/services/vault/vaultService';
import type { ImportReport } from '../../../electron/shared/api/vaultFiles';

let dir: string;
let ctx: ServiceContext;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-batches-'));
  ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'mail', labels: ['spam', 'ham'] });
});
afterEach(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** Imports JSONL rows (one per line: line n is rows[n - 1]). */
async function importRows(rows: { text: string; label: string }[]) {
  const path = join(dir, 'rows.jsonl');
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'mail', path, format: 'jsonl', mapping: { label: 'label' } });
  return ctx.jobs.wait(jobId);
}

const stored = async () =>
  (await getVaultService(ctx)).db.all<{ id: number; text: string; label: string; pii_json: string; pii_kinds: string }>(
    'SELECT id, text, label, pii_json, pii_kinds FROM records ORDER BY id',
  );

describe('import batches', () => {
  it('reports duplicates by line at batch edges, in a batch of only duplicates and of earlier records; stores every field as read', async () => {
    await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'already here', label: 'ham' }] });
    const special = ['a "quoted" \\ back\\slash', 'tab\there\nnew line', 'ünïcödé 日本 🙂 e-mail jo@example.org', 'call +1 415 555 0100', '{"json": [1, 2]}'];
    const B = BATCH_ROWS;
    const total = 4 * B + 100;
    const rows = Array.from({ length: total }, (_, i) => ({ text: `row ${i} ${special[i % special.length]}`, label: i % 2 ? 'spam' : 'ham' }));
    const expectedDuplicates: number[] = [];
    const repeat = (line: number, text: string) => {
      rows[line - 1] = { text, label: 'ham' };
      expectedDuplicates.push(line);
    };
    repeat(B, rows[10].text); // the last row of the first batch repeats an earlier row of it
    repeat(B + 1, 'ALREADY   here'); // the first row of the second batch repeats a record already in the dataset
    for (let line = 2 * B + 1; line <= 3 * B; line++) repeat(line, rows[(line - 2 * B - 1) % 400].text); // a whole batch of duplicates
    repeat(3 * B + 1, rows[20].text); // the first row of the fourth batch repeats one of the first
    repeat(total, rows[4 * B + 5].text); // the last row of the file repeats one of its batch
    const job = await importRows(rows);
    expect(job.error).toBeUndefined();
    const report = job.result as ImportReport;
    expectedDuplicates.sort((a, b) => a - b);
    expect(report.duplicates).toEqual({ count: expectedDuplicates.length, lines: expectedDuplicates.slice(0, 1000) }); // the report keeps 1,000 lines
    expect(report.accepted).toBe(total - expectedDuplicates.length);
    const kept = rows.filter((_, i) => !expectedDuplicates.includes(i + 1));
    const records = (await stored()).slice(1);
    expect(records.map((r) => [r.text, r.label])).toEqual(kept.map((r) => [r.text, r.label]));
    for (const r of records) {
      const pii = scanPii(r.text);
      expect([r.pii_json, r.pii_kinds]).toEqual([JSON.stringify(pii), piiKindsOf(pii)]);
    }
    const search = async (word: string) => (await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 1, filter: { search: word } })).total;
    expect(await search('row')).toBe(report.accepted); // each inserted row indexed once, the duplicates never
    expect(await search('already')).toBe(1);
  });

  it('a batch that fails stops the import: nothing of it, of the batches before it or of those queued behind it is kept', async () => {
    const db = (await getVaultService(ctx)).db;
    // A row SQLite refuses in the third batch; later batches are already queued behind it.
    await db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON records WHEN new.text = 'refused row' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const rows = Array.from({ length: 8 * BATCH_ROWS }, (_, i) => ({ text: i === 2 * BATCH_ROWS + 7 ? 'refused row' : `fine row ${i}`, label: 'ham' }));
    const job = await importRows(rows);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/refused by the test/);
    expect(await stored()).toEqual([]);
    expect(await db.all('SELECT * FROM imports')).toEqual([]);
    expect((await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 1, filter: { search: 'fine' } })).total).toBe(0);
  });

  it('a row skipped for anything but a duplicate text fails the import instead of being reported as a duplicate', async () => {
    const db = (await getVaultService(ctx)).db;
    // The batch INSERT skips rows (OR IGNORE); a row lost another way must not pass as a duplicate.
    await db.exec(`CREATE TRIGGER skip BEFORE INSERT ON records WHEN new.text = 'skipped row' BEGIN SELECT RAISE(IGNORE); END`);
    const rows = Array.from({ length: 2 * BATCH_ROWS }, (_, i) => ({ text: i === BATCH_ROWS + 3 ? 'skipped row' : `kept row ${i}`, label: 'ham' }));
    const job = await importRows(rows);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/refused 1 row\(s\) of the file that are not duplicates; nothing was imported/);
    expect(await stored()).toEqual([]);
  });

  it('leaves every record pointing at its dataset and import (foreign keys are not checked while it writes)', async () => {
    const db = (await getVaultService(ctx)).db;
    const job = await importRows(Array.from({ length: BATCH_ROWS + 10 }, (_, i) => ({ text: `row ${i}`, label: 'ham' })));
    expect(job.status).toBe('succeeded');
    expect(await db.all('PRAGMA foreign_key_check')).toEqual([]);
    const [imported] = await db.all<{ id: number }>('SELECT id FROM imports');
    expect(await db.all('SELECT DISTINCT dataset_id, import_id FROM records')).toEqual([{ dataset_id: 1, import_id: imported.id }]);
  });

  it('keeps CSV rows with quotes and delimiters intact through the batches', async () => {
    const texts = Array.from({ length: 2 * BATCH_ROWS + 200 }, (_, i) => `say "hi", ${i}; then \\n ${i % 7 ? '' : 'bye'}`);
    const path = join(dir, 'q.csv');
    writeFileSync(path, `text,label\n${texts.map((t) => `${quoted(t)},ham`).join('\n')}\n`);
    const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'mail', path, mapping: { label: 'label' } });
    expect((await ctx.jobs.wait(jobId)).status).toBe('succeeded');
    expect((await stored()).map((r) => r.text)).toEqual(texts);
  });

  it('gives the event loop a turn every few dozen rows while it reads, before any batch makes it wait', async () => {
    const vault = await getVaultService(ctx);
    const [dataset] = await callMethod(ctx, 'vault.listDatasets', {});
    const rows = 4 * BATCH_ROWS; // far below the text queued before the reading waits
    const turns = await vault.db.transaction(async (tx) => {
      const writer = new RecordWriter(tx, { datasetId: dataset.id, importId: await createImport(tx, dataset.id, 'test', 'jsonl'), fileBytes: 0 }, () => undefined);
      let [count, counting] = [0, true];
      const tick = () => void (counting && (count++, setImmediate(tick)));
      setImmediate(tick);
      for (let i = 0; i < rows; i++) await writer.add(i + 1, { text: `turn row ${i}`, label: 'ham', split: 'private', tags: [] });
      counting = false;
      await writer.finish();
      return count;
    });
    // One turn per 64 rows (ROWS_PER_TURN); before, none until the queue filled or the file was read.
    expect(turns).toBeGreaterThanOrEqual(rows / 64 - 1);
    expect((await stored()).length).toBe(rows);
  });
});
