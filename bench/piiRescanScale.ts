/**
 * PII rescan at scale, outside the full bench: `tsx bench/piiRescanScale.ts ROWS [RUNS]`.
 * ROWS records of ≈500 characters (every tenth with an e-mail address and a phone number)
 * are written by SQL with no findings, so the first rescan changes every tenth record and
 * later ones change none. Prints one JSON line: seconds and CPU seconds of each rescan,
 * changed counts, peak RSS and the query plans of the page read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { getVaultService } from '../electron/services/vault/vaultHandlers';
import type { PiiRescanReport } from '../electron/shared/api/vault';

const rows = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'veil-rescan-scale-'));
const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
try {
  // Another dataset first, so the bench dataset's ids don't start at 1.
  const other = await callMethod(ctx, 'vault.createDataset', { name: 'other', labels: [] });
  const dataset = await callMethod(ctx, 'vault.createDataset', { name: 'bench', labels: ['spam', 'ham'] });
  const vault = await getVaultService(ctx);
  const fill = (id: number, n: number, tag: string) => vault.db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
    INSERT INTO records (dataset_id, text, label, split, subject_id, content_hash, created_at, updated_at)
    SELECT ${id}, 'Record ' || i || '.' || CASE WHEN i % 10 = 0 THEN ' Contact person' || i || '@example.org or +1 415 555 ' || printf('%04d', i % 10000) || '.' ELSE '' END
      || substr(replace(hex(zeroblob(100)), '00', 'patient reported mild pain '), 1, 460),
      CASE i % 3 WHEN 0 THEN 'spam' ELSE 'ham' END, 'private', 's' || (i % 97), '${tag}' || i, 'now', 'now' FROM n`);
  await fill(other.id, 1000, 'o');
  await fill(dataset.id, rows, 'h');
  vault.changed(dataset.id, 'bench records');
  const results: object[] = [];
  for (let run = 0; run < runs; run++) {
    const [start, cpu] = [performance.now(), process.cpuUsage()];
    const job = await ctx.jobs.wait((await callMethod(ctx, 'vault.scanPii', { dataset: 'bench' })).jobId);
    const { user, system } = process.cpuUsage(cpu);
    if (job.status !== 'succeeded') throw new Error(`rescan ${job.status}: ${job.error}`);
    const report = job.result as PiiRescanReport;
    results.push({ seconds: +((performance.now() - start) / 1000).toFixed(2), cpuSeconds: +((user + system) / 1e6).toFixed(2), changed: report.changed, records: report.records, pii: report.pii });
  }
  process.stdout.write(JSON.stringify({ rows, results, peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n');
} finally {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
}
