/**
 * Dataset export at the page level, on real SQLite: each page is read by a rowid range (not
 * through an index on dataset_id followed by a sort of every remaining row of the dataset,
 * which made a large export quadratic), and a dataset whose ids interleave with another's is
 * exported whole, in id order, without the other's records — with and without a filter — and
 * each page stays inside the dataset's id span (`datasetIdSpan`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { exportPageSql } from '../../../electron/services/vault/exportDataset';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';

// 2,600 records per dataset (three pages of 1,000), ids alternating between the two datasets.
const PER_DATASET = 2600;
let dir: string;
let ctx: ServiceContext;
let ids: { a: number; b: number };

const db = async () => (await getVaultService(ctx)).db;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-export-paging-'));
  ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  const a = await callMethod(ctx, 'vault.createDataset', { name: 'a', labels: ['x', 'y'] });
  const b = await callMethod(ctx, 'vault.createDataset', { name: 'b', labels: ['x', 'y'] });
  ids = { a: a.id, b: b.id };
  await (await db()).exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${2 * PER_DATASET - 1})
    INSERT INTO records (dataset_id, text, label, split, content_hash, created_at, updated_at)
    SELECT CASE i % 2 WHEN 0 THEN ${a.id} ELSE ${b.id} END, 'note ' || i, CASE WHEN i % 3 = 0 THEN 'x' ELSE 'y' END,
      'private', 'h' || i, 'now', 'now' FROM n`);
  for (const id of [a.id, b.id]) (await getVaultService(ctx)).changed(id, 'test records');
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

async function exported(dataset: string, filter?: { labels: string[] }): Promise<number[]> {
  const path = join(dir, `${dataset}-${filter ? 'filtered' : 'all'}.jsonl`);
  await callMethod(ctx, 'vault.export', { dataset, path, format: 'jsonl', ...(filter && { filter }) });
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => Number((JSON.parse(line) as { text: string }).text.slice('note '.length)));
}

describe('vault.export paging', () => {
  it('reads each page by a rowid range, with no sort of the remaining rows', async () => {
    for (const filter of [{}, { labels: ['x'] }]) {
      const { sql, params } = exportPageSql(ids.a, filter);
      const plan = await (await db()).all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, { ...params, after: 0, last: 10_000 });
      const details = plan.map((p) => p.detail).join('\n');
      // Bounded above by the dataset's last id: a small dataset is not read through a larger one's rows.
      expect(details).toMatch(/SEARCH r USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
      expect(details).not.toMatch(/TEMP B-TREE|USING INDEX|USING COVERING INDEX/);
    }
  });

  it("exports one dataset whole and in id order across pages when its ids interleave with another's", async () => {
    const even = Array.from({ length: PER_DATASET }, (_, k) => 2 * k);
    expect(await exported('a')).toEqual(even);
    expect(await exported('b')).toEqual(even.map((i) => i + 1));
    expect(await exported('a', { labels: ['x'] })).toEqual(even.filter((i) => i % 3 === 0));
  });
});
