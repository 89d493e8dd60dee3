/**
 * The import's bulk load (electron/services/vault/import/bulkLoad.ts) drops the full-text
 * trigger and the FTS5 'hashsize' default for the length of its transaction: afterwards — after
 * a successful import and after an aborted one — the schema and FTS configuration must be
 * exactly as before, the imported rows must be searchable, and records added later indexed.
 * Likewise the per-row record_counts trigger (migration 21): the import's rows are counted in
 * one statement, and the counts must equal a recount of the records.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';

let dir: string;
let ctx: ServiceContext;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-bulk-'));
  ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'mail', labels: ['spam', 'ham'] });
});
afterEach(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

async function schemaAndFtsConfig() {
  const db = (await getVaultService(ctx)).db;
  return {
    schema: await db.all(`SELECT type, name, sql FROM sqlite_master ORDER BY type, name`),
    config: await db.all(`SELECT k, v FROM records_fts_config ORDER BY k`),
  };
}

async function importCsv(name: string, rows: string[], onBadRow: 'skip' | 'abort' = 'skip', split: 'private' | 'public' = 'private') {
  const path = join(dir, name);
  writeFileSync(path, `text,label\n${rows.join('\n')}\n`);
  const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'mail', path, mapping: { label: 'label' }, onBadRow, split });
  return ctx.jobs.wait(jobId);
}

const search = async (word: string) => (await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 1000, filter: { search: word } })).total;

describe('import bulk load', () => {
  it('indexes the imported rows and leaves the trigger and FTS configuration as they were', async () => {
    await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'an earlier walrus record', label: 'ham' }] });
    const before = await schemaAndFtsConfig();
    const job = await importCsv('a.csv', [...Array.from({ length: 1200 }, (_, i) => `zebra number ${i},${i % 2 ? 'spam' : 'ham'}`), 'zebra number 7,ham']);
    expect(job.status).toBe('succeeded');
    const after = await schemaAndFtsConfig();
    expect(after.schema).toEqual(before.schema);
    expect(after.config.filter((c) => c.k !== 'hashsize')).toEqual(before.config);
    expect(after.config.find((c) => c.k === 'hashsize')?.v ?? 1024 * 1024).toBe(1024 * 1024);
    expect(await search('zebra')).toBe(1200); // the duplicate line was skipped, not indexed twice
    expect(await search('walrus')).toBe(1);
    await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'a later zebra', label: 'ham' }] });
    expect(await search('zebra')).toBe(1201); // the trigger is back
    const db = (await getVaultService(ctx)).db;
    await db.exec(`INSERT INTO records_fts (records_fts) VALUES ('integrity-check')`);
  });

  it('indexes a large import chunk by chunk: every row once, none missed at a chunk boundary', async () => {
    // 33,000 rows of ≈ 520 characters: more than one 16M-character chunk (bulkLoad.ts), the rest at the end.
    const filler = ' lorem'.repeat(84);
    const rows = Array.from({ length: 33_000 }, (_, i) => `quokka ${i % 2 ? 'odd' : 'even'} ${i}${filler},ham`);
    const job = await importCsv('large.csv', rows);
    expect(job.status).toBe('succeeded');
    expect(await search('quokka')).toBe(33_000);
    expect(await search('odd')).toBe(16_500);
    expect(await search('32999')).toBe(1); // the last row, indexed at the end
    expect(await search('30000')).toBe(1);
    const db = (await getVaultService(ctx)).db;
    await db.exec(`INSERT INTO records_fts (records_fts) VALUES ('integrity-check')`);
  }, 300_000); // a 17 MB import: seconds, minutes on a loaded 2-core machine

  it("moves the public split's version once for a whole public import, not for a private one, and its trigger is back after", async () => {
    const db = (await getVaultService(ctx)).db;
    const version = async () => (await db.get<{ v: number }>("SELECT public_version AS v FROM datasets WHERE name = 'mail'"))!.v;
    const before = await schemaAndFtsConfig();
    const start = await version();
    const job = await importCsv('p.csv', Array.from({ length: 600 }, (_, i) => `ibex number ${i},ham`), 'skip', 'public');
    expect(job.status).toBe('succeeded');
    expect(await version()).toBe(start + 1);
    expect((await schemaAndFtsConfig()).schema).toEqual(before.schema);
    await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'ibex after', label: 'ham', split: 'public' }] });
    expect(await version()).toBe(start + 2); // the per-row trigger is back
    expect((await importCsv('q.csv', Array.from({ length: 600 }, (_, i) => `eland number ${i},ham`))).status).toBe('succeeded');
    expect(await version()).toBe(start + 2); // a private-only import leaves the public split's version alone
  });

  it('adds the imported rows to record_counts in one statement: the counts equal a recount, and the counting trigger is back as it was', async () => {
    const db = (await getVaultService(ctx)).db;
    const triggers = () => db.all(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'record_counts_%' ORDER BY name`);
    const kept = () => db.all("SELECT dataset_id, split, label, n FROM record_counts WHERE n <> 0 ORDER BY 1, 2, 3");
    const recount = () => db.all("SELECT dataset_id, split, COALESCE(label, '') AS label, COUNT(*) AS n FROM records GROUP BY 1, 2, 3 ORDER BY 1, 2, 3");
    await callMethod(ctx, 'vault.createDataset', { name: 'beside', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'beside', records: [{ text: 'beside one', label: 'ham' }] });
    await callMethod(ctx, 'vault.addRecords', {
      dataset: 'mail',
      records: [{ text: 'held one', label: 'ham' }, { text: 'held two', label: 'spam', split: 'public' }, { text: 'held three' }],
    });
    const before = await triggers();
    expect(before.map((t) => t.name)).toEqual(['record_counts_delete', 'record_counts_insert', 'record_counts_update']);
    const splits = ['private', 'public', 'held-out'];
    const rows = Array.from({ length: 1300 }, (_, i) => `tapir number ${i},${['spam', 'ham', ''][i % 3]},${splits[i % 5 % 3]}`);
    const path = join(dir, 'counts.csv');
    writeFileSync(path, `text,label,split\n${[...rows, 'held one,ham,private'].join('\n')}\n`); // the last a duplicate: not counted
    const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'mail', path, mapping: { label: 'label', split: 'split' }, onBadRow: 'skip' });
    const job = await ctx.jobs.wait(jobId);
    expect(job.status).toBe('succeeded');
    expect(await kept()).toEqual(await recount());
    expect((await db.get<{ n: number }>("SELECT SUM(n) AS n FROM record_counts WHERE dataset_id = (SELECT id FROM datasets WHERE name = 'mail')"))!.n).toBe(1303);
    expect(await triggers()).toEqual(before);
    await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'a later tapir', label: 'spam', split: 'held-out' }] });
    expect(await kept()).toEqual(await recount()); // the per-row trigger counts again
  });

  it('an aborted import leaves nothing indexed and the trigger in place', async () => {
    const before = await schemaAndFtsConfig();
    const job = await importCsv('b.csv', [...Array.from({ length: 1200 }, (_, i) => `okapi number ${i},ham`), 'okapi bad,notalabel'], 'abort');
    expect(job.status).toBe('failed');
    expect(await schemaAndFtsConfig()).toEqual(before);
    expect(await search('okapi')).toBe(0);
    await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'okapi after', label: 'ham' }] });
    expect(await search('okapi')).toBe(1);
  });
});
