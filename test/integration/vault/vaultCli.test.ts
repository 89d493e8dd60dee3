/** `veil vault list|create|delete|delete-records|compact|sample-data spam` in-process with captured output, on one data directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServices } from '../../../electron/cli/withServices';
import { callMethod } from '../../../electron/services/api';
import { runCliCaptured } from '../model/cliHarness';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'veil-vault-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const veil = (...args: string[]) => runCliCaptured(...args, '--data-dir', join(dir, 'data'));

interface ListedDataset {
  id: number;
  name: string;
  task: string;
  labels: string[];
  privacyUnit: string;
  subjectCap: number;
  description: string;
  counts: { private: number; public: number; heldOut: number; total: number };
}

async function listed(): Promise<ListedDataset[]> {
  const run = await veil('vault', 'list', '--json');
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as ListedDataset[];
}

const SPAM = 'SpamAssassin sample';

describe('veil vault list / create', () => {
  it('lists no datasets in a new vault', async () => {
    expect(await veil('vault', 'list')).toEqual({ code: 0, stdout: 'no datasets\n', stderr: '' });
    expect(await veil('vault', 'list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('creates a dataset, printing one line or one JSON document', async () => {
    expect(await veil('vault', 'create', 'mail', '--labels', 'spam, ham')).toEqual({ code: 0, stdout: 'created dataset mail (id 1)\n', stderr: '' });
    const run = await veil('vault', 'create', 'notes', '--task', 'generation', '--privacy-unit', 'subject', '--subject-cap', '2', '--description', 'ward notes', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.endsWith('}\n') && run.stdout.indexOf('\n') === run.stdout.length - 1).toBe(true); // exactly one JSON line
    expect(JSON.parse(run.stdout)).toMatchObject({
      id: 2,
      name: 'notes',
      task: 'generation',
      labels: [],
      privacyUnit: 'subject',
      subjectCap: 2,
      description: 'ward notes',
      counts: { private: 0, public: 0, heldOut: 0, total: 0 },
    });
  });

  it('refuses a name that exists and an unknown --task or --privacy-unit in one line, creating nothing', async () => {
    expect(await veil('vault', 'create', 'mail')).toEqual({ code: 1, stdout: '', stderr: 'veil: a dataset named "mail" exists already\n' });
    expect(await veil('vault', 'create', 'weather', '--task', 'forecast')).toEqual({ code: 2, stdout: '', stderr: 'veil: --task must be one of classification, generation; got "forecast"\n' });
    expect(await veil('vault', 'create', 'weather', '--privacy-unit', 'person')).toEqual({ code: 2, stdout: '', stderr: 'veil: --privacy-unit must be one of record, subject; got "person"\n' });
    expect((await listed()).map((d) => d.name)).toEqual(['mail', 'notes']);
  });

  it('lists datasets: name, task, labels and split sizes, one per line', async () => {
    expect(await veil('vault', 'list')).toEqual({
      code: 0,
      stdout: 'mail\tclassification\tspam/ham\t0 private, 0 public, 0 held-out\nnotes\tgeneration\t-\t0 private, 0 public, 0 held-out\n',
      stderr: '',
    });
    expect(await listed()).toMatchObject([
      { name: 'mail', task: 'classification', labels: ['spam', 'ham'], privacyUnit: 'record' },
      { name: 'notes', task: 'generation', privacyUnit: 'subject' },
    ]);
  });
});

describe('veil vault sample-data spam', () => {
  it('creates the SpamAssassin sample: labels spam and ham, private, public and held-out splits', async () => {
    const run = await veil('vault', 'sample-data', 'spam');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const printed = /^created SpamAssassin sample: (\d+) private, (\d+) public, (\d+) held-out\n$/.exec(run.stdout);
    expect(printed).not.toBeNull();
    const [priv, pub, heldOut] = printed!.slice(1).map(Number);
    const spam = (await listed()).find((d) => d.name === SPAM);
    expect(spam).toMatchObject({ task: 'classification', labels: ['spam', 'ham'], counts: { private: priv, public: pub, heldOut, total: priv + pub + heldOut } });
    for (const size of [priv, pub, heldOut]) expect(size).toBeGreaterThan(0);

    // Every split holds records of both labels, and no record lacks a label.
    const stats = await veil('vault', 'stats', SPAM, '--json');
    const labels = (JSON.parse(stats.stdout) as { stats: { labels: { label: string | null; private: number; public: number; heldOut: number }[] } }).stats.labels;
    expect(labels.map((l) => l.label).sort()).toEqual(['ham', 'spam']);
    for (const l of labels) for (const split of [l.private, l.public, l.heldOut]) expect(split).toBeGreaterThan(0);
  });

  it('takes a custom name and refuses a second dataset of the same name', async () => {
    const run = await veil('vault', 'sample-data', 'spam', '--name', 'spam copy', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'spam copy', labels: ['spam', 'ham'] });
    expect(await veil('vault', 'sample-data', 'spam', '--name', 'spam copy')).toMatchObject({ code: 1, stdout: '', stderr: 'veil: a dataset named "spam copy" exists already\n' });
  });
});

describe('veil vault sample-data clinic-summaries', () => {
  it('creates the generation sample: notes with reference summaries, three splits', async () => {
    const run = await veil('vault', 'sample-data', 'clinic-summaries');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^created Clinic summaries sample: \d+ private, \d+ public, \d+ held-out\n$/);
    expect((await listed()).find((d) => d.name === 'Clinic summaries sample')).toMatchObject({ task: 'generation', labels: [], privacyUnit: 'subject' });
    expect(await veil('vault', 'delete', 'Clinic summaries sample', '--yes')).toMatchObject({ code: 0 }); // the later tests count the datasets
  });
});

describe('veil vault delete / compact', () => {
  it('refuses to delete without --yes (exit 2) and deletes nothing', async () => {
    const before = await listed();
    expect(await veil('vault', 'delete', SPAM)).toEqual({ code: 2, stdout: '', stderr: `veil: deleting "${SPAM}" cannot be undone: add --yes\n` });
    expect(await listed()).toEqual(before);
  });

  it('deletes a dataset and its records with --yes, printing the counts', async () => {
    const spam = (await listed()).find((d) => d.name === SPAM)!;
    expect(spam.counts.total).toBeGreaterThan(0);
    expect(await veil('vault', 'delete', SPAM, '--yes')).toEqual({ code: 0, stdout: `deleted ${spam.counts.total} records and the dataset\n`, stderr: '' });
    expect((await listed()).map((d) => d.name)).toEqual(['mail', 'notes', 'spam copy']);

    const copy = (await listed()).find((d) => d.name === 'spam copy')!;
    const json = await veil('vault', 'delete', 'spam copy', '--yes', '--json');
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({ deletedRecords: copy.counts.total, datasetRemoved: true, compacted: true });
    expect((await listed()).map((d) => d.name)).toEqual(['mail', 'notes']);
  }, 300_000); // two sample datasets hard-deleted from the full-text index (secure-delete) and compacted: a minute on a loaded 2-core machine

  it('refuses to delete a dataset that does not exist', async () => {
    expect(await veil('vault', 'delete', 'nope', '--yes')).toEqual({ code: 1, stdout: '', stderr: 'veil: no dataset named "nope"\n' });
  });

  it('compacts the database file', async () => {
    const text = await veil('vault', 'compact');
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(/^compacted: \d+ → \d+ bytes\n$/);
    const json = await veil('vault', 'compact', '--json');
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const sizes = JSON.parse(json.stdout) as { bytesBefore: number; bytesAfter: number };
    expect(sizes.bytesBefore).toBeGreaterThan(0);
    expect(sizes.bytesAfter).toBeGreaterThan(0);
    expect(sizes.bytesAfter).toBeLessThanOrEqual(sizes.bytesBefore);
    expect(await listed()).toHaveLength(2); // compaction loses nothing
  });
});

describe('veil vault delete-records', () => {
  it('deletes one subject’s records (the right to be forgotten) and records by id, with --yes only', async () => {
    const data = join(dir, 'data');
    await withServices(data, async (ctx) => {
      await callMethod(ctx, 'vault.createDataset', { name: 'people', privacyUnit: 'subject' });
      await callMethod(ctx, 'vault.addRecords', {
        dataset: 'people',
        records: [
          { text: 'Ann asked about her invoice', subject: 'ann' },
          { text: 'Ann called again about the invoice', subject: 'ann' },
          { text: 'Bob reset his password', subject: 'bob' },
          { text: 'Cat moved house', subject: 'cat' },
        ],
      });
    });
    const texts = () => withServices(data, async (ctx) => (await callMethod(ctx, 'vault.records', { dataset: 'people' })).rows.map((r) => r.text));
    expect(await veil('vault', 'delete-records', 'people', '--subject', 'ann')).toEqual({ code: 2, stdout: '', stderr: 'veil: deleting records cannot be undone: add --yes\n' });
    expect(await veil('vault', 'delete-records', 'people', '--yes')).toMatchObject({ code: 2, stderr: 'veil: name the records: --ids 1,2,3 or --subject ID (one of them)\n' });
    expect((await texts()).length).toBe(4);

    const bySubject = await veil('vault', 'delete-records', 'people', '--subject', 'ann', '--yes', '--json');
    expect(bySubject).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(bySubject.stdout)).toMatchObject({ deleted: 2 });
    expect(await texts()).toEqual(['Bob reset his password', 'Cat moved house']);

    const bob = await withServices(data, async (ctx) => (await callMethod(ctx, 'vault.records', { dataset: 'people', filter: { subjects: ['bob'] } })).rows[0].id);
    const byId = await veil('vault', 'delete-records', 'people', '--ids', String(bob), '--yes');
    expect(byId).toMatchObject({ code: 0, stderr: '' });
    expect(byId.stdout).toMatch(/^deleted 1 records; compacted: \d+ → \d+ bytes\n$/);
    expect(await texts()).toEqual(['Cat moved house']);
    expect(await veil('vault', 'delete-records', 'people', '--ids', '1,x', '--yes')).toMatchObject({ code: 2, stderr: 'veil: --ids must be positive whole numbers separated by commas, got "1,x"\n' });
  });

  it('lists record ids with split, label, subject and tags — never the text', async () => {
    const data = join(dir, 'data');
    await withServices(data, async (ctx) => {
      await callMethod(ctx, 'vault.createDataset', { name: 'ward', labels: ['urgent', 'routine'], privacyUnit: 'subject' });
      await callMethod(ctx, 'vault.addRecords', {
        dataset: 'ward',
        records: [
          { text: 'Jane Doe, HIV positive, write to jane.doe@example.com', label: 'urgent', subject: 'jane' },
          { text: 'Jane Doe follow-up visit', label: 'routine', subject: 'jane', split: 'public' },
          { text: 'Max Roe broke his arm', subject: 'max', tags: ['ortho'] },
        ],
      });
    });
    const ids = await withServices(data, async (ctx) => (await callMethod(ctx, 'vault.records', { dataset: 'ward' })).rows.map((r) => r.id));
    const text = await veil('vault', 'records', 'ward');
    expect(text).toMatchObject({ code: 0, stderr: '' });
    const lines = text.stdout.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('id\tsplit\tlabel\tsubject\ttags\tpii');
    expect(lines[1]).toMatch(new RegExp(`^${ids[0]}\tprivate\turgent\tjane\t-\t[a-z,-]*email[a-z,-]*$`)); // PII kinds, not the PII
    expect(lines[2]).toMatch(new RegExp(`^${ids[1]}\tpublic\troutine\tjane\t-\t`));
    expect(lines[3]).toMatch(new RegExp(`^${ids[2]}\tprivate\t-\tmax\tortho\t`));
    const json = await veil('vault', 'records', 'ward', '--subject', 'jane', '--json');
    expect(JSON.parse(json.stdout)).toEqual([
      { id: ids[0], split: 'private', label: 'urgent', subject: 'jane', tags: [], pii: expect.arrayContaining(['email']) },
      { id: ids[1], split: 'public', label: 'routine', subject: 'jane', tags: [], pii: expect.any(Array) },
    ]);
    expect((await veil('vault', 'records', 'ward', '--split', 'public')).stdout.trim().split('\n')).toHaveLength(2);
    for (const run of [text, json]) expect(run.stdout).not.toMatch(/Jane Doe|HIV|example\.com|broke/);
    expect(await veil('vault', 'records', 'ward', '--subject', 'nobody')).toEqual({ code: 0, stdout: 'no records\n', stderr: '' });
    expect(await veil('vault', 'records', 'nope')).toMatchObject({ code: 1, stderr: 'veil: no dataset named "nope"\n' });
  });

  it('deletes nothing and exits non-zero when nothing matches, naming the ids or subjects that are not in the dataset', async () => {
    const data = join(dir, 'data');
    const rows = () => withServices(data, async (ctx) => (await callMethod(ctx, 'vault.records', { dataset: 'ward' })).rows.map((r) => r.id));
    const ids = await rows();
    const people = await withServices(data, async (ctx) => (await callMethod(ctx, 'vault.records', { dataset: 'people' })).rows.map((r) => r.id));
    expect(people).toHaveLength(1);

    expect(await veil('vault', 'delete-records', 'ward', '--subject', 'NOPE', '--yes')).toEqual({ code: 1, stdout: '', stderr: 'veil: dataset "ward" has no records of subject "NOPE": nothing deleted\n' });
    expect(await veil('vault', 'delete-records', 'ward', '--subject', 'max', 'NOPE', '--yes')).toMatchObject({ code: 1, stderr: 'veil: dataset "ward" has no records of subject "NOPE": nothing deleted\n' });
    expect(await veil('vault', 'delete-records', 'ward', '--ids', String(people[0]), '--yes')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'veil: none of --ids are records of dataset "ward": nothing deleted (veil vault records "ward" lists its ids)\n',
    });
    expect(await veil('vault', 'delete-records', 'ward', '--ids', `${ids[0]},${people[0]},999999`, '--yes')).toMatchObject({
      code: 1,
      stderr: `veil: record ids ${people[0]}, 999999 are not records of dataset "ward": nothing deleted (veil vault records "ward" lists its ids)\n`,
    });
    expect(await rows()).toEqual(ids);
    expect((await withServices(data, async (ctx) => (await callMethod(ctx, 'vault.records', { dataset: 'people' })).total))).toBe(1);

    const max = await veil('vault', 'delete-records', 'ward', '--subject', 'max', '--yes', '--json');
    expect(max).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(max.stdout)).toMatchObject({ deleted: 1 });
    expect(await rows()).toEqual(ids.slice(0, 2));
  });
});
