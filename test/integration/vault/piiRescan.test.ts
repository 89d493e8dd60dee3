/**
 * On-demand PII rescan (`vault.scanPii`, `veil vault scan-pii`) on real SQLite: stale
 * findings (as left by an older scanner) are replaced and recorded in the history, a second
 * rescan changes nothing, a cancelled rescan leaves every record as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import type { PiiRescanReport } from '../../../electron/shared/api/vault';
import { runCliCaptured } from '../model/cliHarness';

const RECORDS = 2500;
let dir: string;
let data: string;
let ctx: ServiceContext;

// Every third record carries an e-mail address, every fifth a phone number; the rest is plain.
const text = (i: number) =>
  `note ${i} about the quarterly report${i % 3 === 0 ? `, write to user${i}@example.org` : ''}${i % 5 === 0 ? `, call 415-555-${String(1000 + i).slice(-4)}` : ''}.`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-rescan-'));
  data = join(dir, 'data');
  ctx = new ServiceContext(ensureDataDir(data), 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'notes', labels: [] });
  const records = Array.from({ length: RECORDS }, (_, i) => ({ text: text(i) }));
  for (let i = 0; i < RECORDS; i += 1000) await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records: records.slice(i, i + 1000) });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const db = async () => (await getVaultService(ctx)).db;
const piiCounts = async () => Object.fromEntries((await callMethod(ctx, 'vault.stats', { dataset: 'notes' })).pii.map((p) => [p.kind, p.records]));

/** Makes findings stale as an older scanner would have left them: none on every fourth record, a bogus one on plain records. */
async function staleFindings(): Promise<number> {
  const vault = await db();
  const cleared = await vault.run(`UPDATE records SET pii_json = '[]', pii_kinds = '' WHERE id % 4 = 0 AND pii_kinds != ''`);
  const bogus = await vault.run(`UPDATE records SET pii_json = '[{"kind":"iban","start":0,"end":4}]', pii_kinds = 'iban' WHERE id % 7 = 0 AND id % 4 != 0 AND pii_kinds = ''`);
  return cleared.changes + bogus.changes;
}

async function rescan(): Promise<{ status: string; result: PiiRescanReport }> {
  const { jobId } = await callMethod(ctx, 'vault.scanPii', { dataset: 'notes' });
  const job = await ctx.jobs.wait(jobId);
  return { status: job.status, result: job.result as PiiRescanReport };
}

describe('PII rescan', () => {
  it('replaces stale findings, records the change in the history, and is idempotent', async () => {
    const fresh = await piiCounts();
    // 834 multiples of 3 and 500 of 5 below 2500, each flagged at insert.
    expect(fresh).toEqual({ email: 834, phone: 500 });
    const stale = await staleFindings();
    expect(stale).toBeGreaterThan(300);
    expect(await piiCounts()).not.toEqual(fresh);

    const { status, result } = await rescan();
    expect(status).toBe('succeeded');
    expect(result).toMatchObject({ records: RECORDS, changed: stale, pii: [{ kind: 'email', records: 834 }, { kind: 'phone', records: 500 }] });
    expect(await piiCounts()).toEqual(fresh);

    const { id } = (await (await db()).get<{ id: number }>(`SELECT id FROM records WHERE text LIKE '%@example.org%' AND id % 4 = 0 ORDER BY id LIMIT 1`))!;
    const record = await callMethod(ctx, 'vault.record', { id });
    expect(record.pii.map((f) => record.text.slice(f.start, f.end))).toContain(`user${id - 1}@example.org`);
    const entry = record.history.find((h) => h.action === 'pii-rescan');
    expect(entry?.detail).toMatchObject({ before: [], after: expect.arrayContaining(['email']) });
    expect(JSON.stringify(record.history)).not.toContain('example.org');

    expect((await rescan()).result.changed).toBe(0);
  });

  it('leaves every record as it was when cancelled after writing a page', async () => {
    await staleFindings();
    const before = await (await db()).all('SELECT id, pii_json FROM records ORDER BY id');
    const { jobId } = await callMethod(ctx, 'vault.scanPii', { dataset: 'notes' });
    // Cancel once the first page of 1,000 has been rescanned and written.
    const off = ctx.subscribe((event, payload) => {
      if (event === 'job.progress' && (payload as { done: number }).done >= 1000) ctx.jobs.cancel(jobId);
    });
    const job = await ctx.jobs.wait(jobId);
    off();
    expect(job.status).toBe('cancelled');
    expect(await (await db()).all('SELECT id, pii_json FROM records ORDER BY id')).toEqual(before);
  });

  it('runs from the CLI and refuses an unknown dataset', async () => {
    await ctx.close();
    const run = await runCliCaptured('vault', 'scan-pii', 'notes', '--data-dir', data, '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ records: RECORDS, changed: expect.any(Number), pii: [{ kind: 'email', records: 834 }, { kind: 'phone', records: 500 }] });
    const text = await runCliCaptured('vault', 'scan-pii', 'notes', '--data-dir', data);
    expect(text.stdout).toMatch(/^scanned 2500 records in [\d.]+ s; 0 changed\n {2}email: 834 records\n {2}phone: 500 records\n$/);
    expect(await runCliCaptured('vault', 'scan-pii', 'nope', '--data-dir', data)).toMatchObject({ code: 1, stderr: 'veil: no dataset named "nope"\n' });
    ctx = new ServiceContext(ensureDataDir(data), 'cli');
  });
});
