/** File import through the API on real SQLite files: every format, bad rows, duplicates, encodings, abort, cancel, paths. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import type { Params, Queryable } from '../../../electron/services/db/database';
import { alsoIn, FROM_IMPORT } from '../../../electron/services/vault/import/alsoIn';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import type { MethodInput } from '../../../electron/shared/contract';
import type { ImportReport } from '../../../electron/shared/api/vaultFiles';

let dir: string;
let ctx: ServiceContext;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-import-'));
  ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'mail', labels: ['spam', 'ham'] });
});
afterEach(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

type Request = Omit<MethodInput<'vault.import'>, 'path' | 'dataset'> & { dataset?: string };

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function importFile(name: string, content: string | Buffer, request: Request = {}) {
  const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'mail', path: file(name, content), ...request });
  return ctx.jobs.wait(jobId);
}

async function imported(name: string, content: string | Buffer, request: Request = {}): Promise<ImportReport> {
  const job = await importFile(name, content, request);
  expect(job.error).toBeUndefined();
  return job.result as ImportReport;
}

const records = async (dataset = 'mail') => (await callMethod(ctx, 'vault.records', { dataset, limit: 1000 })).rows;

describe('vault.import', () => {
  it('imports nasty CSV (BOM, semicolons, quotes, embedded CRLF, ragged rows) with a report by line, PII scanned, in the imports table', async () => {
    const csv = '\uFEFFbody;label;split;who\r\n"Call me; ""now""\r\nat 555-123-4567";spam;public;p1\r\n\r\nhello there;ham;;p2\nnot a label;phish;private\n;ham\nweird split;spam;test\ntoo;many;fields;x;y\nHELLO   there;ham\nshort\n';
    const report = await imported('nasty.csv', csv, { mapping: { text: 'body', label: 'label', split: 'split', subject: 'who' }, split: 'held-out' });
    expect(report).toMatchObject({ format: 'csv', delimiter: ';', rowsRead: 8, accepted: 2 + 1, encoding: { ok: true, encoding: 'utf-8-bom' } });
    expect(report.duplicates).toEqual({ count: 1, lines: [10] });
    expect(report.badRows.rows.map((b) => [b.line, b.code])).toEqual([[6, 'label-not-in-set'], [7, 'missing-text'], [8, 'invalid-split'], [9, 'malformed']]);
    const rows = await records();
    expect(rows.map((r) => [r.text, r.label, r.split, r.subject])).toEqual([
      ['Call me; "now"\r\nat 555-123-4567', 'spam', 'public', 'p1'],
      ['hello there', 'ham', 'held-out', 'p2'],
      ['short', null, 'held-out', null],
    ]);
    expect(rows[0].pii.map((f) => f.kind)).toEqual(['phone']);
    const vault = await getVaultService(ctx);
    const row = await vault.db.get<{ accepted: number; skipped: number; format: string; report_json: string }>('SELECT * FROM imports');
    expect(row).toMatchObject({ accepted: 3, skipped: 5, format: 'csv' });
    expect(JSON.parse(row!.report_json)).toEqual(report);
    expect(row!.report_json).not.toMatch(/hello|555/);
    expect((await vault.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM records WHERE import_id = $id', { id: report.importId }))!.n).toBe(3);
  });

  it('imports JSONL, JSON arrays and plain text; skips duplicates already in the dataset', async () => {
    const jsonl = '{"text": "first", "label": "spam", "output": "x"}\n\n"second"\n{"text": 42}\n{"label": "ham"}\n{oops\n{"text": {"nested": 1}}\n';
    const a = await imported('a.jsonl', jsonl, { mapping: { label: 'label', output: 'output' } });
    expect([a.accepted, a.badRows.rows.map((b) => `${b.line}:${b.code}`)]).toEqual([3, ['5:missing-text', '6:malformed', '7:invalid-field']]);
    const json = '[\n {"note": "third", "cls": "ham"},\n {"note": "FIRST"},\n "fourth"\n]';
    const b = await imported('b.json', json, { mapping: { text: 'note', label: 'cls' } });
    expect([b.format, b.accepted, b.duplicates.lines]).toEqual(['json', 2, [3]]);
    const c = await imported('c.txt', 'fifth line\r\n\r\nsecond\nsixth\n', { split: 'public' });
    expect([c.format, c.accepted, c.duplicates.lines]).toEqual(['txt', 2, [3]]);
    expect((await records()).map((r) => [r.text, r.label, r.output, r.split])).toEqual([
      ['first', 'spam', 'x', 'private'],
      ['second', null, null, 'private'],
      ['42', null, null, 'private'],
      ['third', 'ham', null, 'private'],
      ['fourth', null, null, 'private'],
      ['fifth line', null, null, 'public'],
      ['sixth', null, null, 'public'],
    ]);
  });

  it('detects tab and pipe delimiters and formats by content', async () => {
    expect((await imported('t.tsv', 'text\tlabel\na, b\tspam\n')).delimiter).toBe('\t');
    expect(await imported('p.data', 'text|label\nc|ham\nd|spam\n')).toMatchObject({ format: 'csv', delimiter: '|', accepted: 2 });
    expect((await records()).map((r) => r.text)).toEqual(['a, b', 'c', 'd']);
  });

  it('reports over-long text and keeps multi-byte characters split across read chunks intact', async () => {
    const long = 'x'.repeat(100_001);
    const line = 'é東🎉'.repeat(40);
    const lines = Array.from({ length: 3000 }, (_, i) => `${i} ${line}`);
    const report = await imported('big.txt', `${lines.join('\n')}\n${long}\n`);
    expect(report.bytes).toBeGreaterThan(1 << 20);
    expect(report).toMatchObject({ accepted: 3000, badRows: { count: 1, rows: [{ line: 3001, code: 'text-too-long' }] }, encoding: { ok: true } });
    const { total, rows } = await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 1000, offset: 2000 });
    expect(total).toBe(3000);
    expect(rows.every((r, i) => r.text === `${2000 + i} ${line}`)).toBe(true);
  });

  it('detects Latin-1 input, explains it, and reports each undecodable row', async () => {
    const latin1 = Buffer.from('text\nplain ascii\ncaf\xe9 au lait\nanother\n', 'latin1');
    const preview = await callMethod(ctx, 'vault.previewImport', { path: file('latin.csv', latin1) });
    expect(preview.encoding).toMatchObject({ ok: false, encoding: 'windows-1252', message: expect.stringMatching(/Latin-1.*re-save it as UTF-8/) });
    const report = await imported('latin.csv', latin1);
    expect(report).toMatchObject({ accepted: 2, encoding: { ok: false }, badRows: { rows: [{ line: 3, code: 'invalid-utf8' }] } });
    await expect(callMethod(ctx, 'vault.import', { dataset: 'mail', path: file('u16.csv', Buffer.from('\uFEFFtext\nhi\n', 'utf16le')) })).rejects.toThrow(/UTF-16LE: re-save it as UTF-8/);
  });

  it('abort: the first bad row fails the job and nothing is imported', async () => {
    const job = await importFile('abort.csv', 'text,label\nfine,spam\nbad,nope\nalso fine,ham\n', { mapping: { label: 'label' }, onBadRow: 'abort' });
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^line 3: the label is not in the dataset's label set \(spam, ham\); the import was aborted and nothing was imported$/);
    expect(await records()).toEqual([]);
    expect(await (await getVaultService(ctx)).db.all('SELECT * FROM imports')).toEqual([]);
  });

  it('tells which other datasets already hold imported texts (their budgets are separate)', async () => {
    const csv = 'text,label\nWin a free cruise,spam\nLunch at noon?,ham\nBoard minutes,ham\n';
    expect((await imported('first.csv', csv, { mapping: { label: 'label' } })).alsoIn).toEqual([]);
    await callMethod(ctx, 'vault.createDataset', { name: 'mail copy', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.createDataset', { name: 'other', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'other', records: [{ text: '  WIN a free   cruise ', label: 'spam' }] }); // same normalised text
    const copy = await imported('copy.csv', `${csv}Something new,ham\n`, { dataset: 'mail copy', mapping: { label: 'label' } });
    expect(copy.accepted).toBe(4);
    expect(copy.alsoIn).toEqual([
      { dataset: 'mail', records: 3 },
      { dataset: 'other', records: 1 },
    ]);
    // Found through the unique (dataset, hash) index: no second index on the hash alone slows every import (migration 15).
    const hashIndexes = await (await getVaultService(ctx)).db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records' AND sql LIKE '%content_hash%'`);
    expect(hashIndexes).toEqual([]);
  });

  it('finds the other datasets from the smaller side: a small import beside a large dataset looks up its own rows', async () => {
    const db = (await getVaultService(ctx)).db;
    await callMethod(ctx, 'vault.createDataset', { name: 'big', labels: ['spam', 'ham'] });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'big', records: Array.from({ length: 300 }, (_, i) => ({ text: `big record ${i}`, label: 'ham' })) });
    await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'big record 7', label: 'ham' }, { text: 'mail only', label: 'ham' }] });
    await callMethod(ctx, 'vault.createDataset', { name: 'small', labels: ['spam', 'ham'] });
    const report = await imported('small.csv', 'text,label\nbig record 7,ham\nbig record 8,ham\nnew,ham\n', { dataset: 'small', mapping: { label: 'label' } });
    expect(report.alsoIn).toEqual([{ dataset: 'big', records: 2 }, { dataset: 'mail', records: 1 }]);
    const asked: string[] = [];
    const counted: number[] = [];
    const spy: Queryable = {
      run: db.run.bind(db), each: db.each.bind(db), exec: db.exec.bind(db),
      get: async <T,>(sql: string, params?: Params) => {
        const row = await db.get<T>(sql, params);
        if (sql.includes('LIMIT $limit')) counted.push((row as { n: number }).n);
        return row;
      },
      all: <T,>(sql: string, params?: Params) => (asked.push(sql), db.all<T>(sql, params)),
    };
    const span = (await db.get<{ first: number; last: number }>('SELECT MIN(id) AS first, MAX(id) AS last FROM records WHERE import_id = $id', { id: report.importId }))!;
    expect(await alsoIn(spy, report.datasetId, report.importId, span)).toEqual(report.alsoIn);
    expect(asked).toEqual([FROM_IMPORT]); // 3 rows × 2 datasets, not the 302 other records
    expect(counted).toEqual([7]); // the other side counted only past the 6 lookups, not to its 302 records
    const plan = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${FROM_IMPORT}`, { datasetId: report.datasetId, importId: report.importId, ...span });
    expect(plan.map((row) => row.detail).join("\n")).toMatch(/SEARCH r USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
    expect(plan.map((row) => row.detail).join('\n')).not.toMatch(/SCAN r|AUTOMATIC/); // neither reads the whole table
    // A large import beside small datasets looks up the other datasets' rows: the same answer.
    const all = await db.get<{ first: number; last: number }>('SELECT MIN(id) AS first, MAX(id) AS last FROM records WHERE dataset_id = (SELECT id FROM datasets WHERE name = $name)', { name: 'big' });
    const bigImport = (await db.get<{ id: number }>(`INSERT INTO imports (dataset_id, source, format, started_at) SELECT id, 'test', 'csv', 'now' FROM datasets WHERE name = 'big' RETURNING id`))!.id;
    await db.run('UPDATE records SET import_id = $bigImport WHERE id BETWEEN $first AND $last', { bigImport, ...all! });
    asked.length = 0;
    const bigId = (await db.get<{ id: number }>(`SELECT id FROM datasets WHERE name = 'big'`))!.id;
    expect(await alsoIn(spy, bigId, bigImport, all!)).toEqual([{ dataset: 'mail', records: 1 }, { dataset: 'small', records: 2 }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).not.toBe(FROM_IMPORT);
  });

  it('a row the reader cannot go past (unclosed quote, unterminated JSON array) fails the import, nothing imported, even when bad rows are skipped', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => `row ${i},ham`);
    const csv = await importFile('quote.csv', ['text,label', ...rows.slice(0, 5), '"He said, hi,ham', ...rows.slice(5)].join('\n'), { mapping: { label: 'label' } });
    expect(csv.status).toBe('failed');
    expect(csv.error).toMatch(/^line 7: a quoted field opened on this line is never closed \(a stray quote\?\): the file ends inside it; the import was aborted and nothing was imported$/);
    const json = await importFile('open.json', '[{"text": "one", "label": "ham"}, {"text": "two"', { mapping: { label: 'label' } });
    expect(json.status).toBe('failed');
    expect(json.error).toMatch(/the JSON array is not closed/);
    expect(await records()).toEqual([]);
    expect(await (await getVaultService(ctx)).db.all('SELECT * FROM imports')).toEqual([]);
  });

  it('cancel: a cancelled import leaves nothing behind', async () => {
    const path = file('many.csv', `text\n${Array.from({ length: 60_000 }, (_, i) => `row ${i} ${'lorem ipsum '.repeat(8)}`).join('\n')}\n`);
    const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'mail', path });
    const off = ctx.subscribe((event) => event === 'job.progress' && ctx.jobs.cancel(jobId));
    const job = await ctx.jobs.wait(jobId);
    off();
    expect(job.status).toBe('cancelled');
    expect((await callMethod(ctx, 'vault.stats', { dataset: 'mail' })).splits.private).toBe(0);
  });

  it('runs concurrent imports one after the other', async () => {
    const starts = await Promise.all(['x', 'y', 'z'].map((n) => callMethod(ctx, 'vault.import', { dataset: 'mail', path: file(`${n}.txt`, `${n} one\n${n} two\n`) })));
    const jobs = await Promise.all(starts.map(({ jobId }) => ctx.jobs.wait(jobId)));
    expect(jobs.map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect((await records()).length).toBe(6);
  });
});

describe('checks before an import starts', () => {
  it('validates paths: absolute, existing, a regular file', async () => {
    mkdirSync(join(dir, 'folder'));
    const start = (path: string) => callMethod(ctx, 'vault.import', { dataset: 'mail', path });
    await expect(start('relative.csv')).rejects.toThrow(/must be absolute/);
    await expect(start(join(dir, 'missing.csv'))).rejects.toThrow(/no such file/);
    await expect(start(join(dir, 'folder'))).rejects.toThrow(/is a directory/);
    await expect(start('/dev/null')).rejects.toThrow(/not a regular file/);
    await expect(start(file('empty.csv', ''))).rejects.toThrow(/the file is empty/);
  });

  it('checks the mapping against the header and the dataset', async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'gen', task: 'generation' });
    const path = file('m.csv', 'body,label\nx,spam\n');
    await expect(callMethod(ctx, 'vault.import', { dataset: 'mail', path, mapping: { text: 'text' } })).rejects.toThrow(/the text column "text" is not in the file.s header; the file.s header has "body", "label"$/);
    await expect(callMethod(ctx, 'vault.import', { dataset: 'gen', path, mapping: { text: 'body', label: 'label' } })).rejects.toThrow(/generation dataset has no labels/);
    await expect(callMethod(ctx, 'vault.import', { dataset: 'nope', path, mapping: { text: 'body' } })).rejects.toThrow(/no dataset named "nope"/);
  });
});

describe('vault.previewImport', () => {
  it('shows format, delimiter, columns, encoding, a suggested mapping and at most 20 rows', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i};"note ${i}\nwith a second line";${i % 2 ? 'spam' : 'ham'}`);
    const preview = await callMethod(ctx, 'vault.previewImport', { path: file('p.csv', `id;Body;Category\n${rows.join('\n')}\n`) });
    expect(preview).toMatchObject({ format: 'csv', delimiter: ';', columns: ['id', 'Body', 'Category'], encoding: { ok: true, encoding: 'utf-8' }, suggestedMapping: { text: 'Body', label: 'Category' } });
    expect(preview.rows).toHaveLength(20);
    expect(preview.rows[1]).toEqual({ line: 4, values: { id: '1', Body: 'note 1\nwith a second line', Category: 'spam' } });
    const json = await callMethod(ctx, 'vault.previewImport', { path: file('p.jsonl', '{"text":"a","y":1}\n{"text":"b","z":null}\nnot json\n') });
    expect(json).toMatchObject({ format: 'jsonl', delimiter: null, columns: ['text', 'y', 'z'], badRows: [{ line: 3, code: 'malformed' }] });
    expect(json.rows[0].values).toEqual({ text: 'a', y: '1' });
  });
});
