/**
 * Child process of the streaming-import memory test: creates the dataset "big" (labels spam,
 * ham) in a fresh DATA_DIR, imports FILE (a CSV with columns text, label) through the real
 * `vault.import` job and prints one JSON line: the job's status and counts, the RSS before
 * the import started and the process's peak RSS. The parent starts it with a small V8 heap,
 * so a reader that holds the file in memory dies with a heap OOM instead.
 * Usage: node --max-old-space-size=N --import tsx importMemoryChild.ts DATA_DIR FILE
 */
import { getHeapStatistics } from 'node:v8';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import type { ImportReport } from '../../../electron/shared/api/vaultFiles';

const [dataDir, path] = process.argv.slice(2);
const ctx = new ServiceContext(ensureDataDir(dataDir), 'cli');
await callMethod(ctx, 'vault.createDataset', { name: 'big', labels: ['spam', 'ham'] });
const baselineRss = process.memoryUsage().rss;
const started = performance.now();
const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'big', path, mapping: { label: 'label' } });
const job = await ctx.jobs.wait(jobId);
const seconds = (performance.now() - started) / 1000;
const report = job.result as ImportReport | undefined;
await ctx.close();
process.stdout.write(`${JSON.stringify({
  status: job.status,
  error: job.error ?? null,
  rowsRead: report?.rowsRead ?? null,
  accepted: report?.accepted ?? null,
  duplicates: report?.duplicates.count ?? null,
  badRows: report?.badRows.count ?? null,
  bytes: report?.bytes ?? null,
  seconds,
  baselineRss,
  peakRss: process.resourceUsage().maxRSS * 1024,
  heapLimit: getHeapStatistics().heap_size_limit,
})}\n`);
