/**
 * PII rescan at the page level, on real SQLite: each page is read by a rowid range (not
 * through the (dataset_id, …) indexes and a sort of every remaining row, which made the
 * rescan quadratic), a dataset whose ids interleave with another's is rescanned page by page
 * without touching the other, and writing findings leaves the full-text index as it was.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';
import { PAGE_SQL } from '../../../electron/services/vault/piiRescan';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';
import type { PiiRescanReport } from '../../../electron/shared/api/vault';
import { tempServices, type TempServices } from '../../helpers/services';

// 2,600 records per dataset (three pages of 1,000), ids alternating between the two datasets.
const PER_DATASET = 2600;
let services: TempServices;
let ctx: ServiceContext;
let ids: { a: number; b: number };

const db = async () => (await getVaultService(ctx)).db;

beforeAll(async () => {
  services = tempServices('veil-rescan-paging-');
  ctx = services.ctx;
  const a = await callMethod(ctx, 'vault.createDataset', { name: 'a', labels: [] });
  const b = await callMethod(ctx, 'vault.createDataset', { name: 'b', labels: [] });
  ids = { a: a.id, b: b.id };
  // Written by SQL with no findings (as an older scanner would have left them); every fourth
  // record of each dataset carries an e-mail address.
  await (await db()).exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${2 * PER_DATASET - 1})
    INSERT INTO records (dataset_id, text, split, subject_id, content_hash, created_at, updated_at)
    SELECT CASE i % 2 WHEN 0 THEN ${a.id} ELSE ${b.id} END,
      'zebra note ' || i || CASE WHEN (i / 2) % 4 = 0 THEN ', mail user' || i || '@example.org' ELSE '' END || '.',
      'private', 's' || (i % 7), 'h' || i, 'now', 'now' FROM n`);
  for (const id of [a.id, b.id]) (await getVaultService(ctx)).changed(id, 'test records');
});
afterAll(() => services?.remove());

async function rescan(dataset: string): Promise<PiiRescanReport> {
  const job = await ctx.jobs.wait((await callMethod(ctx, 'vault.scanPii', { dataset })).jobId);
  expect(job.status).toBe('succeeded');
  return job.result as PiiRescanReport;
}

/** A digest of the full-text index's stored blocks: any re-indexing of a record rewrites some of them. */
async function ftsDigest(): Promise<string> {
  const rows = await (await db()).all<{ id: number; block: Buffer }>('SELECT id, block FROM records_fts_data ORDER BY id');
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${row.id}:`).update(row.block ?? Buffer.alloc(0));
  return hash.digest('hex');
}

describe('PII rescan paging', () => {
  it('reads each page by a rowid range, with no sort of the remaining rows', async () => {
    const plan = await (await db()).all<{ detail: string }>(`EXPLAIN QUERY PLAN ${PAGE_SQL}`, { datasetId: ids.a, after: 0, last: 10_000, limit: 1000 });
    const details = plan.map((p) => p.detail).join('\n');
    expect(details).toMatch(/SEARCH records USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
    expect(details).not.toMatch(/TEMP B-TREE|USING INDEX|USING COVERING INDEX/);
  });

  it("rescans one dataset across pages when its ids interleave with another's, and leaves the full-text index untouched", async () => {
    const fts = await ftsDigest();
    const report = await rescan('a');
    expect(report).toMatchObject({ records: PER_DATASET, changed: PER_DATASET / 4, pii: [{ kind: 'email', records: PER_DATASET / 4 }] });
    const kinds = await (await db()).all<{ dataset_id: number; n: number }>(`SELECT dataset_id, COUNT(*) AS n FROM records WHERE pii_kinds != '' GROUP BY dataset_id`);
    expect(kinds).toEqual([{ dataset_id: ids.a, n: PER_DATASET / 4 }]); // dataset b's records as they were
    const history = await (await db()).get<{ n: number }>(`SELECT COUNT(*) AS n FROM record_history WHERE action = 'pii-rescan'`);
    expect(history!.n).toBe(PER_DATASET / 4);

    // Only pii_json and pii_kinds changed: the FTS update trigger fires on UPDATE OF text alone.
    expect(await ftsDigest()).toBe(fts);
    const trigger = await (await db()).get<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'records_fts_update'`);
    expect(trigger!.sql).toMatch(/AFTER UPDATE OF text ON records/);
    expect((await callMethod(ctx, 'vault.records', { dataset: 'a', limit: 1, offset: 0, filter: { search: 'zebra' } })).total).toBe(PER_DATASET);

    expect((await rescan('b')).changed).toBe(PER_DATASET / 4);
    expect(await rescan('a')).toMatchObject({ records: PER_DATASET, changed: 0 });
  });
});
