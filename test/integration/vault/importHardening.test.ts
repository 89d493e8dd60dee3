/**
 * Import hardening from the outside review: no cell content in any error (a file without a
 * header row makes its first data row the header), rows merged by an unterminated quote
 * reported by line, subject-level warnings, numbers taken as written in JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import type { MethodInput } from '../../../electron/shared/contract';
import type { ImportReport } from '../../../electron/shared/api/vaultFiles';

const run = promisify(execFile);
let dir: string;
let dataDir: string;
let ctx: ServiceContext;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-import-hard-'));
  dataDir = ensureDataDir(join(dir, 'data'));
  ctx = new ServiceContext(dataDir, 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'mail', labels: ['pos', 'neg'] });
});
afterEach(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

type Request = Omit<MethodInput<'vault.import'>, 'path' | 'dataset'> & { dataset?: string };
async function imported(path: string, request: Request = {}): Promise<ImportReport> {
  const job = await ctx.jobs.wait((await callMethod(ctx, 'vault.import', { dataset: 'mail', path, ...request })).jobId);
  expect(job.error).toBeUndefined();
  return job.result as ImportReport;
}

const CANARY = 'private first row CANARY-7f3a9';

describe('import errors quote no content', () => {
  it('says the first row looks like data, naming none of its cells, in the API and the CLI', async () => {
    const path = file('noheader.csv', `${CANARY},pos,subj1\nsecond private row,neg,subj2\n`);
    const error = await callMethod(ctx, 'vault.import', { dataset: 'mail', path }).then(() => null, (e: Error) => e.message);
    expect(error).toMatch(/the text column "text" is not in the file's header; the first row looks like data/);
    for (const cell of ['CANARY', 'private first', 'subj1', '"pos"']) expect(error).not.toContain(cell);
    const cli = await run(process.execPath, ['bin/veil.mjs', 'vault', 'import', path, '--dataset', 'mail', '--data-dir', dataDir]).then(
      () => null,
      (e: { stderr: string }) => e.stderr,
    );
    expect(cli).toMatch(/the first row looks like data/);
    expect(cli).not.toContain('CANARY');
  }, 60_000);

  it('names the header\'s columns when they all look like field names', async () => {
    const path = file('header.csv', 'Body Text,Customer ID,label_2\nhello,c1,pos\n');
    await expect(callMethod(ctx, 'vault.import', { dataset: 'mail', path })).rejects.toThrow(/the file's header has "Body Text", "Customer ID", "label_2"$/);
  });
});

describe('JSON numbers', () => {
  it('are taken as written in the file, never reformatted (no "Infinity", no rounded 30-digit integer)', async () => {
    const path = file('numbers.jsonl', '{"text": 1e999999, "label": "pos"}\n{"text": 123456789012345678901234567890, "label": "neg", "note": {"n": -0.5e-3}}\n{"text": "a \\"quoted\\" 12, not a number", "label": "pos"}\n');
    const report = await imported(path);
    expect(report).toMatchObject({ accepted: 3, badRows: { count: 0 } });
    const texts = (await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 10 })).rows.map((r) => r.text).sort();
    expect(texts).toEqual(['123456789012345678901234567890', '1e999999', 'a "quoted" 12, not a number']);
  });

  it('in a JSON array too', async () => {
    const path = file('numbers.json', '[{"text": -12345678901234567890.25, "label": "pos"}]');
    expect(await imported(path)).toMatchObject({ accepted: 1 });
    expect((await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 10 })).rows[0].text).toBe('-12345678901234567890.25');
  });
});

describe('CSV rows merged by an open quote', () => {
  it('are a bad row naming both lines, not one record that lost a label and a subject', async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'tickets', labels: ['bug', 'feature'] });
    const csv = [
      'id,text,label,subject',
      '7,Crash on start,bug,C005',
      '8,"Unterminated quote here,bug,C006',
      '9,"Where is the dark mode toggle?",feature,C007',
      '10,"A real multi-line text,',
      'with commas, on two lines",bug,C008',
    ].join('\n');
    const report = await imported(file('merged.csv', `${csv}\n`), { dataset: 'tickets', mapping: { text: 'text', label: 'label', subject: 'subject' } });
    expect(report.badRows.rows).toEqual([{ line: 3, code: 'malformed', reason: expect.stringMatching(/^lines 3–4 were read as one row: a quote opened on line 3 is closed inside a field on line 4/) }]);
    expect(report.accepted).toBe(2);
    const texts = (await callMethod(ctx, 'vault.records', { dataset: 'tickets', limit: 10 })).rows.map((r) => r.text);
    expect(texts).toContain('A real multi-line text,\nwith commas, on two lines');
    expect(JSON.stringify(report)).not.toContain('Unterminated');
  });
});

describe('subject-level datasets', () => {
  it('count the rows imported without a subject id, and the CLI warns', async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'people', labels: ['pos', 'neg'], privacyUnit: 'subject', subjectCap: 2 });
    const path = file('people.csv', 'text,label,who\nfirst,pos,s1\nsecond,neg,\nthird,pos,s2\nfourth,neg,\n');
    expect(await imported(path, { dataset: 'people', mapping: { text: 'text', label: 'label', subject: 'who' } })).toMatchObject({ accepted: 4, withoutSubject: 2 });
    const again = file('people2.csv', 'text,label,who\nfifth,pos,\n');
    const { stderr, stdout } = await run(process.execPath, ['bin/veil.mjs', 'vault', 'import', again, '--dataset', 'people', '--subject', 'who', '--data-dir', dataDir]);
    expect(`${stdout}${stderr}`).toMatch(/warning: 1 row\(s\) have no subject id: in this subject-level dataset each counts as its own data subject/);
  }, 60_000);
});

describe('random split', () => {
  const rows = Array.from({ length: 400 }, (_, i) => `row ${i},${i % 2 ? 'pos' : 'neg'}`).join('\n');

  it('splits rows at random in the given proportions (CSPRNG), a seed making it repeatable; the CLI says which', async () => {
    const path = file('split.csv', `text,label\n${rows}\n`);
    const report = await imported(path, { randomSplit: { private: 0.5, public: 0.25, heldOut: 0.25 } });
    expect(report).toMatchObject({ accepted: 400, randomSplit: 'csprng' });
    const counts = (await callMethod(ctx, 'vault.records', { dataset: 'mail', limit: 1000 })).rows.reduce<Record<string, number>>((c, r) => ({ ...c, [r.split]: (c[r.split] ?? 0) + 1 }), {});
    // Binomial(400, 0.5) and (400, 0.25): each count within 5 standard deviations (σ ≤ 10 and 8.7) of its mean; fails with probability < 1e-5.
    expect(Math.abs(counts.private - 200)).toBeLessThan(50);
    expect(Math.abs(counts.public - 100)).toBeLessThan(44);
    expect(Math.abs(counts['held-out'] - 100)).toBeLessThan(44);

    const seeded = async (name: string) => {
      await callMethod(ctx, 'vault.createDataset', { name, labels: ['pos', 'neg'] });
      expect(await imported(path, { dataset: name, randomSplit: { private: 0.5, public: 0.25, heldOut: 0.25, seed: 'audit-2026' } })).toMatchObject({ randomSplit: 'seed' });
      return (await callMethod(ctx, 'vault.records', { dataset: name, limit: 1000 })).rows.map((r) => `${r.text}:${r.split}`).sort();
    };
    expect(await seeded('s1')).toEqual(await seeded('s2'));

    await callMethod(ctx, 'vault.createDataset', { name: 'cli', labels: ['pos', 'neg'] });
    const cli = await run(process.execPath, ['bin/veil.mjs', 'vault', 'import', path, '--dataset', 'cli', '--random-split', '0.8,0.1,0.1', '--data-dir', dataDir]);
    expect(cli.stdout).toMatch(/rows without a split value were split at random \(from the CSPRNG; not a privacy mechanism\)/);
    const bad = await run(process.execPath, ['bin/veil.mjs', 'vault', 'import', path, '--dataset', 'cli', '--random-split', '0.8,0.3,0.1', '--data-dir', dataDir]).then(() => '', (e: { stderr: string }) => e.stderr);
    expect(bad).toMatch(/--random-split must be three proportions private,public,held-out adding up to 1/);
  }, 120_000);

  it("keeps each subject's records in one split (the public split has no privacy)", async () => {
    await callMethod(ctx, 'vault.createDataset', { name: 'subjects', labels: ['pos', 'neg'], privacyUnit: 'subject', subjectCap: 10 });
    // 40 subjects of 10 records each, interleaved: a per-row draw would scatter every subject over the splits.
    const rows = Array.from({ length: 400 }, (_, i) => `record ${i},${i % 2 ? 'pos' : 'neg'},s${i % 40}`).join('\n');
    const path = file('subjects.csv', `text,label,who\n${rows}\n`);
    await imported(path, { dataset: 'subjects', mapping: { text: 'text', label: 'label', subject: 'who' }, randomSplit: { private: 0.5, public: 0.25, heldOut: 0.25 } });
    const records = (await callMethod(ctx, 'vault.records', { dataset: 'subjects', limit: 1000 })).rows;
    const splits = new Map<string, Set<string>>();
    for (const r of records) splits.set(r.subject!, (splits.get(r.subject!) ?? new Set()).add(r.split));
    expect(splits.size).toBe(40);
    for (const set of splits.values()) expect(set.size).toBe(1);
  }, 60_000);
});
