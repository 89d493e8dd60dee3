/** The vault on real SQLite: datasets, records, duplicates, filters, bulk edits, history, hard delete. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { appDatabase, DATABASE_FILE } from '../../../electron/services/db/appDatabase';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';

let dir: string;
let ctx: ServiceContext;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'veil-vault-'));
  ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
});
afterEach(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = callMethod;

async function mail() {
  await call(ctx, 'vault.createDataset', { name: 'mail', task: 'classification', labels: ['spam', 'ham'] });
  return call(ctx, 'vault.addRecords', {
    dataset: 'mail',
    records: [
      { text: 'Win a free cruise now', label: 'spam' },
      { text: 'Lunch at noon?', label: 'ham', tags: ['work'] },
      { text: 'Cheap pills, order today', label: 'spam', split: 'public' },
      { text: 'Minutes of the board meeting', label: 'ham', split: 'held-out', tags: ['work'] },
      { text: '  win a FREE cruise   now ', label: 'spam' },
    ],
  });
}

describe('vault store', () => {
  it('creates datasets, adds records and skips duplicates of normalised text', async () => {
    expect(await mail()).toEqual({ added: 4, duplicates: 1 });
    const [dataset] = await call(ctx, 'vault.listDatasets', {});
    expect(dataset).toMatchObject({ name: 'mail', labels: ['spam', 'ham'], counts: { private: 2, public: 1, heldOut: 1, total: 4 } });
    await expect(call(ctx, 'vault.createDataset', { name: 'mail' })).rejects.toThrow(/exists already/);
  });

  it('refuses a label outside the label set, adding nothing', async () => {
    await mail();
    await expect(call(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'ok', label: 'ham' }, { text: 'x', label: 'phishing' }] })).rejects.toThrow(/not in the dataset's label set/);
    expect((await call(ctx, 'vault.stats', { dataset: 'mail' })).splits.private).toBe(2);
  });

  it('adds all records or none: a request holding one normalised text twice writes nothing, even inside the caller’s transaction', async () => {
    await mail();
    const vault = await getVaultService(ctx);
    const dataset = await vault.dataset('mail');
    const count = 'SELECT COUNT(*) AS n FROM records WHERE dataset_id = $id';
    await vault.db.transaction(async (tx) => {
      const twice = [{ text: 'Quarterly report attached', label: 'ham', split: 'private' as const, tags: [] }, { text: '  quarterly REPORT attached ', label: 'ham', split: 'private' as const, tags: [] }];
      await expect(vault.addAllRecordsIn(tx, dataset, twice)).rejects.toThrow(/2 texts to add hold the same text twice: nothing was added/);
      // Refused from the texts alone, before any insert: the caller's transaction holds no new row.
      expect((await tx.get<{ n: number }>(count, { id: dataset.id }))!.n).toBe(4);
      expect(await vault.addAllRecordsIn(tx, dataset, [twice[0]])).toEqual([]);
    });
    expect((await call(ctx, 'vault.stats', { dataset: 'mail' })).splits.private).toBe(3);
  });

  it('pages, searches and filters records', async () => {
    await mail();
    const all = await call(ctx, 'vault.records', { dataset: 'mail', limit: 2 });
    expect(all.total).toBe(4);
    expect(all.rows).toHaveLength(2);
    const cruise = await call(ctx, 'vault.records', { dataset: 'mail', filter: { search: 'cruise' } });
    expect(cruise.rows.map((r) => r.text)).toEqual(['Win a free cruise now']);
    const prefix = await call(ctx, 'vault.records', { dataset: 'mail', filter: { search: 'meet*' } });
    expect(prefix.total).toBe(1);
    const work = await call(ctx, 'vault.records', { dataset: 'mail', filter: { tags: ['work'], splits: ['private'] } });
    expect(work.rows.map((r) => r.text)).toEqual(['Lunch at noon?']);
    const spam = await call(ctx, 'vault.records', { dataset: 'mail', filter: { labels: ['spam'] } });
    expect(spam.total).toBe(2);
    // Search text is never interpreted as FTS syntax.
    expect((await call(ctx, 'vault.records', { dataset: 'mail', filter: { search: 'NEAR(" OR *' } })).total).toBe(0);
  });

  it('edits a record with history and bulk-moves, tags and deletes by filter', async () => {
    await mail();
    const { rows } = await call(ctx, 'vault.records', { dataset: 'mail', filter: { search: 'lunch' } });
    await call(ctx, 'vault.updateRecord', { id: rows[0].id, label: 'spam' });
    await expect(call(ctx, 'vault.updateRecord', { id: rows[0].id, label: 'other' })).rejects.toThrow(/label set/);
    const record = await call(ctx, 'vault.record', { id: rows[0].id });
    expect(record.label).toBe('spam');
    expect(record.history).toEqual([expect.objectContaining({ action: 'edit', detail: expect.objectContaining({ to: expect.objectContaining({ label: 'spam' }) }) })]);

    expect(await call(ctx, 'vault.bulk', { dataset: 'mail', target: { filter: { labels: ['spam'] } }, action: { kind: 'tag', tag: 'review' } })).toEqual({ affected: 3 });
    expect(await call(ctx, 'vault.bulk', { dataset: 'mail', target: { filter: { tags: ['review'] } }, action: { kind: 'move', split: 'public' } })).toEqual({ affected: 3 });
    const stats = await call(ctx, 'vault.stats', { dataset: 'mail' });
    expect(stats.splits).toEqual({ private: 0, public: 3, heldOut: 1 });
    expect(stats.tags).toContainEqual({ tag: 'review', records: 3 });
    expect(await call(ctx, 'vault.bulk', { dataset: 'mail', target: { ids: [rows[0].id] }, action: { kind: 'untag', tag: 'review' } })).toEqual({ affected: 1 });
    expect(await call(ctx, 'vault.bulk', { dataset: 'mail', target: { filter: { splits: ['public'] } }, action: { kind: 'delete' } })).toEqual({ affected: 3 });
    expect((await call(ctx, 'vault.stats', { dataset: 'mail' })).splits).toEqual({ private: 0, public: 0, heldOut: 1 });
  });

  it('finds PII on insert, filters by it, and redacts with history', async () => {
    await mail();
    await call(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'Dear Maria Lopez, card 4111 1111 1111 1111, mail maria@example.org', label: 'ham' }] });
    const { rows } = await call(ctx, 'vault.records', { dataset: 'mail', filter: { pii: ['any'] } });
    expect(rows).toHaveLength(1);
    expect(rows[0].pii.map((f) => f.kind)).toEqual(['person-name', 'credit-card', 'email']);
    expect((await call(ctx, 'vault.records', { dataset: 'mail', filter: { pii: ['iban'] } })).total).toBe(0);
    expect((await call(ctx, 'vault.stats', { dataset: 'mail' })).pii).toContainEqual({ kind: 'email', records: 1 });
    const redacted = await call(ctx, 'vault.redact', { id: rows[0].id, kinds: ['credit-card', 'email'] });
    expect(redacted.text).toBe('Dear Maria Lopez, card [CREDIT_CARD], mail [EMAIL]');
    expect(redacted.pii.map((f) => f.kind)).toEqual(['person-name']);
    const { history } = await call(ctx, 'vault.record', { id: rows[0].id });
    expect(history).toEqual([expect.objectContaining({ action: 'redact', detail: { kinds: ['credit-card', 'email'], spans: 2 } })]);
    expect(JSON.stringify(history)).not.toContain('4111');
  });

  it('redacts one chosen span and refuses a span that is not a finding', async () => {
    await mail();
    await call(ctx, 'vault.addRecords', { dataset: 'mail', records: [{ text: 'write to ann@example.org or bob@example.org', label: 'ham' }] });
    const [row] = (await call(ctx, 'vault.records', { dataset: 'mail', filter: { search: 'write' } })).rows;
    expect(row.pii).toEqual([{ kind: 'email', start: 9, end: 24 }, { kind: 'email', start: 28, end: 43 }]);
    // A span named twice is redacted once (it must not cut into the text around it).
    const redacted = await call(ctx, 'vault.redact', { id: row.id, spans: [{ start: 28, end: 43 }, { start: 28, end: 43 }] });
    expect(redacted.text).toBe('write to ann@example.org or [EMAIL]');
    expect(redacted.pii).toEqual([{ kind: 'email', start: 9, end: 24 }]);
    expect((await call(ctx, 'vault.record', { id: row.id })).history.at(-1)).toMatchObject({ action: 'redact', detail: { kinds: ['email'], spans: 1 } });
    await expect(call(ctx, 'vault.redact', { id: row.id, spans: [{ start: 28, end: 43 }] })).rejects.toThrow(/characters 28–43 of record \d+ are not a PII finding/);
    expect((await call(ctx, 'vault.record', { id: row.id })).text).toBe('write to ann@example.org or [EMAIL]');
  });

  const bytes = () => ['', '-wal'].map((s) => { try { return readFileSync(join(dir, 'data', DATABASE_FILE + s)).toString('latin1'); } catch { return ''; } }).join('');

  it('redaction leaves the redacted text nowhere in the database files (index and write-ahead log included), without compaction', async () => {
    await call(ctx, 'vault.createDataset', { name: 'hr', task: 'generation' });
    await call(ctx, 'vault.addRecords', { dataset: 'hr', records: [{ text: 'Call me at qzxunique@mailhost.net now' }, { text: 'routine note' }] });
    const [row] = (await call(ctx, 'vault.records', { dataset: 'hr', filter: { search: 'qzxunique*' } })).rows;
    expect(bytes()).toContain('qzxunique');
    expect((await call(ctx, 'vault.redact', { id: row.id, kinds: ['email'] })).text).toBe('Call me at [EMAIL] now');
    expect(bytes()).not.toContain('qzxunique');
    expect(bytes()).not.toContain('mailhost');
    expect((await call(ctx, 'vault.records', { dataset: 'hr', filter: { search: 'qzxunique*' } })).rows).toEqual([]);
    expect((await call(ctx, 'vault.records', { dataset: 'hr', filter: { search: 'call' } })).rows.map((r) => r.id)).toEqual([row.id]);
  });

  it('redaction does not wait on another connection reading the log; the log is emptied once it lets go', { timeout: 20_000 }, async () => {
    await call(ctx, 'vault.createDataset', { name: 'hr', task: 'generation' });
    await call(ctx, 'vault.addRecords', { dataset: 'hr', records: [{ text: 'Write to pqzunique@mailhost.net today' }] });
    const [row] = (await call(ctx, 'vault.records', { dataset: 'hr' })).rows;
    // A second connection (an import, a CLI) holds a read transaction on the write-ahead log.
    const reader = new sqlite3.Database(join(dir, 'data', DATABASE_FILE));
    const step = (sql: string) => new Promise<void>((resolve, reject) => reader.all(sql, (e) => (e ? reject(e) : resolve())));
    await step('BEGIN');
    await step('SELECT COUNT(*) FROM records');
    // The service's connection would now wait an hour for a lock: a checkpoint that waited
    // for the reader (which lets go only after the redaction returns) would never return.
    await (await appDatabase(ctx)).exec('PRAGMA busy_timeout = 3600000');
    expect((await call(ctx, 'vault.redact', { id: row.id, kinds: ['email'] })).text).toBe('Write to [EMAIL] today');
    expect(bytes()).toContain('pqzunique'); // still in the log the reader holds
    await step('COMMIT');
    await new Promise<void>((resolve) => reader.close(() => resolve()));
    await expect.poll(() => bytes().includes('pqzunique'), { timeout: 10_000, interval: 250 }).toBe(false);
  });

  it('hard-deletes: after compaction the deleted text is nowhere in the database files', async () => {
    await call(ctx, 'vault.createDataset', { name: 'hr', task: 'generation' });
    const secret = 'Zanzibar-7731 grievance of employee';
    await call(ctx, 'vault.addRecords', { dataset: 'hr', records: [{ text: secret }, { text: 'routine note' }] });
    expect(bytes()).toContain('Zanzibar-7731');
    const result = await call(ctx, 'vault.deleteDataset', { dataset: 'hr' });
    expect(result).toEqual({ deletedRecords: 2, datasetRemoved: true, compacted: true });
    expect(bytes()).not.toContain('Zanzibar');
    expect(await call(ctx, 'vault.listDatasets', {})).toEqual([]);
  });
});
