/** Dataset export on real SQLite: CSV and JSONL content, a CSV round trip through import, filters, path and overwrite rules. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';

let dir: string;
let ctx: ServiceContext;
const records = [
  { text: 'Plain text', label: 'spam', tags: ['a', 'b'] },
  { text: 'Comma, "quotes"\r\nand a second line', label: 'ham', split: 'public' as const, subject: 'p-1' },
  { text: 'Held out, no label', split: 'held-out' as const, output: 'an output' },
];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-export-'));
  ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'mail', labels: ['spam', 'ham'] });
  await callMethod(ctx, 'vault.addRecords', { dataset: 'mail', records });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const rowsOf = async (dataset: string) =>
  (await callMethod(ctx, 'vault.records', { dataset })).rows.map(({ text, label, output, split, subject }) => ({ text, label, output, split, subject }));

describe('vault.export', () => {
  it('writes JSONL, one object per record, owner-only', async () => {
    const path = join(dir, 'out.jsonl');
    expect(await callMethod(ctx, 'vault.export', { dataset: 'mail', path, format: 'jsonl' })).toMatchObject({ path, format: 'jsonl', records: 3 });
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ text: 'Plain text', label: 'spam', output: null, split: 'private', subject: null, tags: ['a', 'b'] });
    expect(lines[1]).toMatchObject({ text: records[1].text, subject: 'p-1', split: 'public' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('writes RFC 4180 CSV that imports back into the same records', async () => {
    const path = join(dir, 'out.csv');
    const result = await callMethod(ctx, 'vault.export', { dataset: 'mail', path, format: 'csv' });
    const text = readFileSync(path, 'utf8');
    expect(result.bytes).toBe(Buffer.byteLength(text));
    expect(text.split('\r\n').slice(0, 2)).toEqual(['text,label,output,split,subject,tags', 'Plain text,spam,,private,,a;b']);
    await callMethod(ctx, 'vault.createDataset', { name: 'copy', labels: ['spam', 'ham'] });
    const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'copy', path, mapping: { text: 'text', label: 'label', output: 'output', split: 'split', subject: 'subject' } });
    expect((await ctx.jobs.wait(jobId)).result).toMatchObject({ accepted: 3, badRows: { count: 0 } });
    expect(await rowsOf('copy')).toEqual(await rowsOf('mail'));
  });

  it('exports only the records a filter selects', async () => {
    const path = join(dir, 'public.jsonl');
    expect((await callMethod(ctx, 'vault.export', { dataset: 'mail', path, format: 'jsonl', filter: { splits: ['public'] } })).records).toBe(1);
  });

  it('refuses to overwrite unless asked, and refuses relative paths, directories, links and missing folders', async () => {
    const path = join(dir, 'exists.csv');
    writeFileSync(path, 'keep me');
    const exportTo = (p: string, overwrite = false) => callMethod(ctx, 'vault.export', { dataset: 'mail', path: p, format: 'csv', overwrite });
    await expect(exportTo(path)).rejects.toThrow(/exists; choose another name or overwrite it/);
    expect(readFileSync(path, 'utf8')).toBe('keep me');
    expect((await exportTo(path, true)).records).toBe(3);
    expect(readFileSync(path, 'utf8')).toMatch(/^text,label/);
    mkdirSync(join(dir, 'folder.csv'));
    symlinkSync(path, join(dir, 'link.csv'));
    await expect(exportTo('out.csv')).rejects.toThrow(/must be absolute/);
    await expect(exportTo(join(dir, 'folder.csv'), true)).rejects.toThrow(/not a regular file/);
    await expect(exportTo(join(dir, 'link.csv'), true)).rejects.toThrow(/symbolic link/);
    await expect(exportTo(join(dir, 'nowhere', 'x.csv'))).rejects.toThrow(/no such directory/);
  });

  it('writes only a file named for its format, outside hidden files and folders (no shell profile or autostart entry)', async () => {
    const exportTo = (p: string) => callMethod(ctx, 'vault.export', { dataset: 'mail', path: p, format: 'csv', overwrite: true });
    const profile = join(dir, 'bashrc');
    writeFileSync(profile, 'export PATH=/usr/bin');
    await expect(exportTo(profile)).rejects.toThrow(/the file name must end in \.csv/);
    expect(readFileSync(profile, 'utf8')).toBe('export PATH=/usr/bin');
    await expect(callMethod(ctx, 'vault.export', { dataset: 'mail', path: join(dir, 'x.csv'), format: 'jsonl' })).rejects.toThrow(/must end in \.jsonl/);
    writeFileSync(join(dir, '.hidden.csv'), 'keep');
    await expect(exportTo(join(dir, '.hidden.csv'))).rejects.toThrow(/does not write into hidden files or folders \(\.hidden\.csv\)/);
    mkdirSync(join(dir, '.config'));
    await expect(exportTo(join(dir, '.config', 'x.csv'))).rejects.toThrow(/hidden files or folders \(\.config\)/);
    expect((await exportTo(join(dir, 'UPPER.CSV'))).records).toBe(3);
  });
});
