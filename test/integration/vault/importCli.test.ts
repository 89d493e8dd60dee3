/** `veil vault import|stats|export|sample-data` in-process with captured output, and one real subprocess. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../model/cliHarness';

let dir: string;
let data: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'veil-vault-cli-'));
  data = join(dir, 'data');
  writeFileSync(join(dir, 'mail.csv'), 'body;label;split\n"Hi; see you at 10";ham;public\nWIN NOW;spam;\nwho knows;phish;\nhi;  see you at 10;ham\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const veil = (...args: string[]) => runCliCaptured(...args, '--data-dir', data);

describe('veil vault import / stats / export', () => {
  it('imports a file into a new dataset and reports bad rows by line', async () => {
    const file = join(dir, 'mail.csv');
    const missing = await veil('vault', 'import', file, '--dataset', 'mail', '--text', 'body');
    expect(missing).toMatchObject({ code: 2, stderr: 'veil: no dataset named "mail" (add --create, with --labels for a classification dataset)\n' });
    const run = await veil('vault', 'import', file, '--dataset', 'mail', '--create', '--labels', 'spam,ham', '--text', 'body', '--label', 'label', '--split-column', 'split', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: 'csv', delimiter: ';', accepted: 2, badRows: { count: 2, rows: [{ line: 4, code: 'label-not-in-set' }, { line: 5, code: 'label-not-in-set' }] } });
    const again = await veil('vault', 'import', file, '--dataset', 'mail', '--text', 'body', '--label', 'label', '--split-column', 'split');
    expect(again.stdout).toMatch(/^imported 0 of 4 rows into "mail" \(csv, delimiter ";", [\d.]+ s\)\nduplicates skipped: 2 \(lines 2, 3\)\nbad rows skipped: 2\n {2}line 4: the label is not in the dataset's label set \(spam, ham\)\n/);
    expect(again.stdout).not.toMatch(/WIN|see you/);
  });

  it('aborts on a bad row with one line on stderr and a non-zero exit', async () => {
    const run = await veil('vault', 'import', join(dir, 'mail.csv'), '--dataset', 'mail', '--text', 'body', '--label', 'label', '--on-bad-row', 'abort');
    expect(run).toMatchObject({ code: 1, stderr: expect.stringMatching(/^veil: line 4: .*nothing was imported\n$/) });
    expect((await veil('vault', 'import', 'x.csv', '--dataset', 'mail', '--format', 'xml')).stderr).toBe('veil: --format must be one of csv, jsonl, json, txt; got "xml"\n');
  });

  it('prints statistics of one dataset or of all', async () => {
    const one = JSON.parse((await veil('vault', 'stats', '--dataset', 'mail', '--json')).stdout);
    expect(one).toMatchObject({ dataset: { name: 'mail' }, stats: { splits: { private: 1, public: 1, heldOut: 0 } } });
    const all = JSON.parse((await veil('vault', 'stats', '--json')).stdout);
    expect(all.map((s: { dataset: { name: string } }) => s.dataset.name)).toEqual(['mail']);
    expect((await veil('vault', 'show', 'mail')).stdout).toMatch(/^mail \(classification, privacy unit: record\)\nsplits: 1 private, 1 public, 0 held-out\n/);
    expect(await veil('vault', 'stats', '--dataset', 'nope')).toMatchObject({ code: 1, stderr: 'veil: no dataset named "nope"\n' });
  });

  it('exports to CSV or JSONL (format from the extension), refusing to overwrite without --overwrite', async () => {
    const out = join(dir, 'mail.jsonl');
    const first = await veil('vault', 'export', 'mail', '--out', out, '--json');
    expect(JSON.parse(first.stdout)).toMatchObject({ path: out, format: 'jsonl', records: 2 });
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(await veil('vault', 'export', 'mail', '--out', out)).toMatchObject({ code: 2, stderr: `veil: --out ${out} exists; add --overwrite to replace it\n` });
    expect(await veil('vault', 'export', 'mail', '--out', join(dir, 'missing', 'x.csv'))).toMatchObject({ code: 2, stderr: `veil: --out ${join(dir, 'missing', 'x.csv')}: the folder ${join(dir, 'missing')} does not exist\n` });
    expect((await veil('vault', 'export', 'mail', '--out', out, '--overwrite')).stdout).toMatch(/^wrote 2 records to /);
    expect((await veil('vault', 'export', 'mail', '--out', out, '--overwrite', '--format', 'csv')).stderr).toMatch(/^veil: the file name must end in \.csv: /);
    const csv = join(dir, 'exported.csv');
    expect((await veil('vault', 'export', 'mail', '--out', csv)).stdout).toMatch(/^wrote 2 records to /);
    expect(readFileSync(csv, 'utf8')).toMatch(/^text,label,output,split,subject,tags\r\n/);
    expect(await veil('vault', 'export', 'mail', '--out', join(dir, 'mail.out'))).toMatchObject({ code: 2, stderr: 'veil: the file name must end in .csv or .jsonl\n' });
  });

  it('import --create sets the privacy unit and subject cap; a subject column on a record-level dataset is warned about', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'text,subject\nann asked about her invoice,ann\nann called again,ann\nbob reset his password,bob\n');
    const created = await veil('vault', 'import', file, '--dataset', 'people', '--create', '--task', 'generation', '--subject', 'subject', '--privacy-unit', 'subject', '--subject-cap', '2', '--json');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const people = JSON.parse((await veil('vault', 'stats', 'people', '--json')).stdout);
    expect(people.dataset).toMatchObject({ privacyUnit: 'subject', subjectCap: 2, task: 'generation' });

    const recordLevel = await veil('vault', 'import', file, '--dataset', 'flat', '--create', '--task', 'generation', '--subject', 'subject');
    expect(recordLevel.code).toBe(0);
    expect(recordLevel.stderr).toBe('veil: warning: --subject maps a subject column, but dataset "flat" has privacy unit "record": ε protects single records, not a person with several (create it with --privacy-unit subject)\n');
    expect(await veil('vault', 'import', file, '--dataset', 'x', '--create', '--privacy-unit', 'person')).toMatchObject({ code: 2, stderr: 'veil: --privacy-unit must be one of record, subject; got "person"\n' });
  });

  it('refuses --labels, --task, --privacy-unit or --subject-cap that do not match a dataset that exists, importing nothing', async () => {
    const before = JSON.parse((await veil('vault', 'stats', 'mail', '--json')).stdout).stats.splits;
    const file = join(dir, 'more.csv');
    writeFileSync(file, 'text,label\nbrand new text,spam\n');
    const run = await veil('vault', 'import', file, '--dataset', 'mail', '--create', '--labels', 'spam,phish', '--label', 'label');
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'veil: dataset "mail" exists already and does not match --labels spam,phish (it has spam,ham): these flags only set up a dataset --create creates; drop them or import into another dataset\n',
    });
    expect((await veil('vault', 'import', file, '--dataset', 'mail', '--privacy-unit', 'subject', '--label', 'label')).stderr).toMatch(/does not match --privacy-unit subject \(it is record\)/);
    expect(JSON.parse((await veil('vault', 'stats', 'mail', '--json')).stdout).stats.splits).toEqual(before);
    // The same label set (in any order) is no mistake.
    expect(await veil('vault', 'import', file, '--dataset', 'mail', '--create', '--labels', 'ham, spam', '--label', 'label')).toMatchObject({ code: 0, stderr: '' });
  });

  it('sample-data checks its kind', async () => {
    expect(await veil('vault', 'sample-data', 'weather')).toMatchObject({ code: 2, stderr: 'veil: kind must be one of spam, clinic, clinic-summaries; got "weather"\n' });
  });

  it('sample-data creates the clinic sample', async () => {
    const run = await veil('vault', 'sample-data', 'clinic', '--name', 'clinic', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).counts.total).toBeGreaterThan(0);
  });

  it('runs as a real process', () => {
    const run = spawnSync(process.execPath, ['bin/veil.mjs', 'vault', 'import', join(dir, 'none.csv'), '--dataset', 'mail', '--data-dir', data], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`veil: no such file: ${join(dir, 'none.csv')}\n`);
  });
});
