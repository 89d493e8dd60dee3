/**
 * Redaction that makes two records of a dataset equal (templated e-mails differing only in
 * the address) on real SQLite: both are redacted and both stay, despite the unique
 * (dataset, content hash) key; the full-text index and the database files forget the
 * addresses; duplicate detection still works for the redacted text.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadRequestError, callMethod as call } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { DATABASE_FILE } from '../../../electron/services/db/appDatabase';
import { ensureDataDir } from '../../../electron/services/dataDir';
import type { ImportReport } from '../../../electron/shared/api/vaultFiles';

let dir: string;
let ctx: ServiceContext;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-redact-'));
  ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  await call(ctx, 'vault.createDataset', { name: 'mail', task: 'generation' });
  await call(ctx, 'vault.addRecords', {
    dataset: 'mail',
    records: [{ text: 'Please contact alice@example.org today' }, { text: 'Please contact bob@example.com today' }, { text: 'routine note' }],
  });
});
afterEach(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const REDACTED = 'Please contact [EMAIL] today';
const rows = async (search?: string) => (await call(ctx, 'vault.records', { dataset: 'mail', limit: 100, filter: search ? { search } : {} })).rows;
const bytes = () => ['', '-wal'].map((s) => { try { return readFileSync(join(dir, 'data', DATABASE_FILE + s)).toString('latin1'); } catch { return ''; } }).join('');

async function importLines(name: string, lines: string[]): Promise<ImportReport> {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  const { jobId } = await call(ctx, 'vault.import', { dataset: 'mail', path, format: 'txt' });
  const job = await ctx.jobs.wait(jobId);
  expect(job.error).toBeUndefined();
  return job.result as ImportReport;
}

describe('redaction that makes records equal', () => {
  it('redacts both near-duplicates; both stay, with histories, and neither address is found or stored', async () => {
    const [alice, bob] = await rows();
    expect(bytes()).toContain('alice@example.org');

    expect((await call(ctx, 'vault.redact', { id: alice.id, kinds: ['email'] })).text).toBe(REDACTED);
    const second = await call(ctx, 'vault.redact', { id: bob.id, kinds: ['email'] });
    expect(second).toMatchObject({ id: bob.id, text: REDACTED, pii: [] });

    expect((await rows()).map((r) => [r.id, r.text])).toEqual([[alice.id, REDACTED], [bob.id, REDACTED], [expect.any(Number), 'routine note']]);
    expect((await call(ctx, 'vault.record', { id: alice.id })).history).toEqual([expect.objectContaining({ action: 'redact', detail: { kinds: ['email'], spans: 1 } })]);
    // The second record's history says its text is now the first one's.
    expect((await call(ctx, 'vault.record', { id: bob.id })).history).toEqual([expect.objectContaining({ action: 'redact', detail: { kinds: ['email'], spans: 1, sameTextAs: alice.id } })]);

    for (const search of ['alice', 'bob', 'alice@example.org', 'bob@example.com', 'example*', 'org', 'com']) expect(await rows(search)).toEqual([]);
    expect((await rows('contact')).map((r) => r.id)).toEqual([alice.id, bob.id]);
    expect((await rows('EMAIL')).map((r) => r.id)).toEqual([alice.id, bob.id]);
    for (const secret of ['alice', 'bob@', 'example.org', 'example.com']) expect(bytes()).not.toContain(secret);
    expect((await call(ctx, 'vault.stats', { dataset: 'mail' })).pii).toEqual([]);
  });

  it('still skips the redacted text as a duplicate; the original text comes back as a new record with its PII flagged', async () => {
    const [alice, bob] = await rows();
    await call(ctx, 'vault.redact', { id: alice.id });
    await call(ctx, 'vault.redact', { id: bob.id });

    expect(await call(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'please contact [email]   TODAY' }] })).toEqual({ added: 0, duplicates: 1 });
    const report = await importLines('again.txt', [REDACTED, 'Please contact alice@example.org today']);
    expect(report).toMatchObject({ accepted: 1, duplicates: { count: 1, lines: [1] } });
    // The vault kept nothing of the removed address, not even a hash: the original is a new record, flagged.
    const all = await rows();
    expect(all).toHaveLength(4);
    expect(all[3]).toMatchObject({ text: 'Please contact alice@example.org today', pii: [{ kind: 'email' }] });
    expect((await rows('alice')).map((r) => r.id)).toEqual([all[3].id]);

    // Redacting it again makes a third equal record; it stays too, and nothing else changed.
    expect((await call(ctx, 'vault.redact', { id: all[3].id })).text).toBe(REDACTED);
    expect((await call(ctx, 'vault.record', { id: all[3].id })).history.at(-1)?.detail).toMatchObject({ sameTextAs: alice.id });
    expect((await rows()).map((r) => r.text)).toEqual([REDACTED, REDACTED, 'routine note', REDACTED]);
    expect(await rows('alice')).toEqual([]);
  });

  it('redacts a record to the text of a record that was never redacted', async () => {
    await call(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: REDACTED }] });
    const [alice] = await rows();
    const plain = (await rows()).find((r) => r.text === REDACTED)!;
    await call(ctx, 'vault.redact', { id: alice.id });
    expect((await call(ctx, 'vault.record', { id: alice.id })).history.at(-1)?.detail).toMatchObject({ sameTextAs: plain.id });
    expect((await rows(REDACTED)).map((r) => r.id)).toEqual([alice.id, plain.id]);
  });

  it('has no way to edit a record\'s text by hand: a text field in vault.updateRecord is refused and changes nothing', async () => {
    const [alice, bob] = await rows();
    const error = await call(ctx, 'vault.updateRecord', { id: bob.id, text: alice.text } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError); // HTTP 400
    expect(String(error)).toMatch(/invalid input for vault.updateRecord.*"text"/s);
    expect((await call(ctx, 'vault.record', { id: bob.id })).text).toBe('Please contact bob@example.com today');
  });
});
