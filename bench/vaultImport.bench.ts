/**
 * The vault at scale. Import of a generated CSV (≈500 characters of prose per row, some
 * with e-mail addresses and phone numbers for the PII scan) through the real job, each run in
 * a child process that reports its seconds, CPU seconds (all threads: SQLite works on its
 * own) and peak RSS: 10,000 (median of 5), 100,000 (median of 3; target ≤ 10 s) and 1,000,000
 * rows (once; target ≤ 100 s, peak RSS < 500 MB; VEIL_BENCH_SKIP_1M=1 skips it). Each beside
 * its reference, run alternately with it: the same file read with the same CSV parser and its
 * rows inserted into a plain SQLite table (no indexes, no full-text index) in one transaction
 * (goal: import ≤ 3 × raw). The last import of each size is followed by a PII rescan of the
 * imported records and record-table page reads. Poisson
 * sampling with q = 0.001 from 1,000,000 private records through the sampling API
 * (median of 50 calls after the one-time index load; target ≤ 50 ms). Record-table page reads
 * (200 rows) on the imported records: first page (reference), last page by id and by label,
 * a search (medians of 7).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cryptoRandom } from '../core/random/cryptoRandom';
import { seededRandom } from '../core/random/seededRandom';
import { callMethod } from '../electron/services/api';
import { ServiceContext } from '../electron/services/context';
import { ensureDataDir } from '../electron/services/dataDir';
import { getVaultService } from '../electron/services/vault/vaultHandlers';
import type { PiiRescanReport } from '../electron/shared/api/vault';
import type { ImportReport } from '../electron/shared/api/vaultFiles';
import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { Database } from '../electron/services/db/database';
import { median } from './stats';
import { tableRow, type TableRow } from './table';

const WORDS = 'patient reported mild pain in the left knee after running was advised rest ice and elevation follow up two weeks the invoice attached please review meeting moved to thursday afternoon budget quarterly figures account suspended verify your details'.split(' ');
const ROW_CHARS = 500;

/** Writes a CSV of `rows` rows (text, label) of deterministic prose, streamed to disk. */
async function writeCsv(path: string, rows: number): Promise<number> {
  const random = seededRandom('vault-import-bench');
  const out = createWriteStream(path);
  out.write('text,label\n');
  for (let i = 0; i < rows; i++) {
    let text = `Record ${i}.`;
    if (i % 10 === 0) text += ` Contact person${i}@example.org or +1 415 555 ${String(i % 10_000).padStart(4, '0')}.`;
    while (text.length < ROW_CHARS) text += ` ${WORDS[random.nextUint32() % WORDS.length]}`;
    if (!out.write(`"${text}, done",${i % 3 ? 'ham' : 'spam'}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return statSync(path).size;
}

/** Median ms of the record table's page reads (200 rows): the first page (reference), the last, the last by label, a search. */
async function pageTimes(ctx: ServiceContext, rows: number): Promise<Record<string, number>> {
  const last = Math.max(0, rows - 200);
  const cases = { first: { offset: 0, order: 'id' }, last: { offset: last, order: 'id' }, lastByLabel: { offset: last, order: 'label' }, searchMiddle: { offset: 4_000, order: 'id', filter: { search: 'invoice' } } } as const;
  const result: Record<string, number> = {};
  for (const [name, page] of Object.entries(cases)) {
    const times: number[] = [];
    for (let run = 0; run < 7; run++) {
      const start = performance.now();
      await callMethod(ctx, 'vault.records', { dataset: 'bench', limit: 200, ...page });
      times.push(performance.now() - start);
    }
    result[name] = +median(times).toFixed(1);
  }
  return result;
}

/** CPU seconds of this process since `start` (process.cpuUsage()), all threads. */
const cpuSeconds = (start: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
};

/** Child mode: import one file into a fresh data directory and print seconds, CPU seconds, rows and peak RSS; with `after`, then a PII rescan and page reads. */
async function childImport(csv: string, dataDir: string, after: boolean): Promise<void> {
  const ctx = new ServiceContext(ensureDataDir(dataDir), 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'bench', labels: ['spam', 'ham'] });
  const [start, cpu] = [performance.now(), process.cpuUsage()];
  const { jobId } = await callMethod(ctx, 'vault.import', { dataset: 'bench', path: csv, mapping: { label: 'label' } });
  const job = await ctx.jobs.wait(jobId);
  const [seconds, cpuSecs] = [(performance.now() - start) / 1000, cpuSeconds(cpu)];
  if (job.status !== 'succeeded') throw new Error(`import ${job.status}: ${job.error}`);
  const report = job.result as ImportReport;
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  let extra = {};
  if (after) {
    const rescan = await ctx.jobs.wait((await callMethod(ctx, 'vault.scanPii', { dataset: 'bench' })).jobId);
    if (rescan.status !== 'succeeded') throw new Error(`PII rescan ${rescan.status}: ${rescan.error}`);
    extra = { rescanSeconds: (rescan.result as PiiRescanReport).seconds, pageMs: await pageTimes(ctx, report.accepted) };
  }
  await ctx.close();
  process.stdout.write(JSON.stringify({ seconds, cpuSeconds: cpuSecs, accepted: report.accepted, badRows: report.badRows.count, peakRssMB, ...extra }));
}

/** Child mode: the reference — the same CSV through csv-parse into a plain table, one transaction, batched like the import. */
async function childRaw(csv: string, file: string): Promise<void> {
  const db = await Database.open(file);
  await db.exec('CREATE TABLE raw (id INTEGER PRIMARY KEY, text TEXT NOT NULL, label TEXT)');
  const [start, cpu] = [performance.now(), process.cpuUsage()];
  await db.transaction(async (tx) => {
    let batch: string[][] = [];
    const insert = (rows: string[][]) => tx.run(`INSERT INTO raw (text, label) SELECT r.value ->> '$[0]', r.value ->> '$[1]' FROM json_each($rows) r`, { rows: JSON.stringify(rows) });
    for await (const record of createReadStream(csv).pipe(parse({ from_line: 2 })) as AsyncIterable<string[]>) {
      batch.push(record);
      if (batch.length === 500) {
        await insert(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await insert(batch);
  });
  const [seconds, cpuSecs] = [(performance.now() - start) / 1000, cpuSeconds(cpu)];
  await db.close();
  process.stdout.write(JSON.stringify({ seconds, cpuSeconds: cpuSecs, peakRssMB: process.resourceUsage().maxRSS / 1024 }));
}

function child<T>(mode: string, ...args: string[]): T {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), mode, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`import bench child ${mode} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

interface ImportRun {
  seconds: number;
  cpuSeconds: number;
  accepted: number;
  badRows: number;
  peakRssMB: number;
  rescanSeconds?: number;
  pageMs?: Record<string, number>;
}

/** `runs` imports of a generated file of `rows` rows, each after a raw insert of the same file; medians. */
async function importCase(dir: string, rows: number, runs: number, targetSeconds: number, table: TableRow[]): Promise<object> {
  const csv = join(dir, `rows-${rows}.csv`);
  const bytes = await writeCsv(csv, rows);
  const raws: { seconds: number; cpuSeconds: number }[] = [];
  const imports: ImportRun[] = [];
  for (let run = 0; run < runs; run++) {
    raws.push(child('--raw', csv, join(dir, `raw-${rows}-${run}.sqlite`)));
    imports.push(child('--child', csv, join(dir, `data-${rows}-${run}`), run === runs - 1 ? 'after' : ''));
    rmSync(join(dir, `data-${rows}-${run}`), { recursive: true, force: true });
    for (const end of ['', '-wal', '-shm']) rmSync(join(dir, `raw-${rows}-${run}.sqlite${end}`), { force: true });
  }
  rmSync(csv, { force: true });
  const [seconds, rawSeconds] = [median(imports.map((r) => r.seconds)), median(raws.map((r) => r.seconds))];
  const [cpuSecs, rawCpu] = [median(imports.map((r) => r.cpuSeconds)), median(raws.map((r) => r.cpuSeconds))];
  const last = imports[runs - 1];
  const peakRssMB = Math.max(...imports.map((r) => r.peakRssMB));
  const label = rows.toLocaleString('en');
  table.push(tableRow(`vault import, ${label} CSV rows (peak RSS ${Math.round(peakRssMB)} MB; CPU ${cpuSecs.toFixed(1)} s, ${(cpuSecs / rawCpu).toFixed(2)}× raw's)`, seconds, targetSeconds, { what: 'raw SQLite insert of the same rows', seconds: rawSeconds }));
  return {
    rows, runs, fileMB: +(bytes / 2 ** 20).toFixed(1), accepted: last.accepted, badRows: last.badRows,
    seconds: +seconds.toFixed(2), secondsEach: imports.map((r) => +r.seconds.toFixed(2)), rowsPerSecond: Math.round(rows / seconds),
    rawSqliteSeconds: +rawSeconds.toFixed(2), rawSecondsEach: raws.map((r) => +r.seconds.toFixed(2)), ratioToRaw: +(seconds / rawSeconds).toFixed(2),
    cpuSeconds: +cpuSecs.toFixed(2), rawCpuSeconds: +rawCpu.toFixed(2), cpuRatioToRaw: +(cpuSecs / rawCpu).toFixed(2),
    piiRescanSeconds: last.rescanSeconds === undefined ? null : +last.rescanSeconds.toFixed(2), peakRssMB: Math.round(peakRssMB), targetSeconds, peakRssTargetMB: 500,
    recordPageMedianMs: last.pageMs ?? null,
  };
}

/** 1,000,000 private records written by SQL, then the sampling API's q = 0.001 Poisson sample. */
async function samplingCase(dir: string): Promise<object> {
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data-sampling')), 'cli');
  try {
    const dataset = await callMethod(ctx, 'vault.createDataset', { name: 'million', labels: ['spam', 'ham'] });
    const vault = await getVaultService(ctx);
    await vault.db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
      INSERT INTO records (dataset_id, text, label, split, content_hash, created_at, updated_at)
      SELECT ${dataset.id}, 'record ' || i || ' ' || substr(replace(hex(zeroblob(100)), '00', 'lorem '), 1, 480), CASE i % 2 WHEN 0 THEN 'spam' ELSE 'ham' END,
        'private', 'h' || i, 'now', 'now' FROM n`);
    vault.changed(dataset.id, 'bench records');
    const loadStart = performance.now();
    const pool = await vault.pool(await vault.dataset(dataset.id), undefined);
    const indexLoadMs = performance.now() - loadStart;
    const times: number[] = [];
    let sampled = 0;
    for (let run = 0; run < 50; run++) {
      const start = performance.now();
      const groups = await pool.sampleTeachers(0.001, 10, cryptoRandom);
      times.push(performance.now() - start);
      sampled += groups.flat().length;
    }
    return { records: pool.units, q: 0.001, meanSampled: sampled / times.length, medianMs: +median(times).toFixed(2), indexLoadMs: Math.round(indexLoadMs), target: '≤ 50 ms median' };
  } finally {
    await ctx.close();
  }
}

export async function run(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-bench-vault-'));
  try {
    const table: TableRow[] = [];
    const import10k = await importCase(dir, 10_000, 5, 1, table);
    const import100k = await importCase(dir, 100_000, 3, 10, table);
    const import1M = process.env.VEIL_BENCH_SKIP_1M === '1' ? 'skipped (VEIL_BENCH_SKIP_1M=1)' : await importCase(dir, 1_000_000, 1, 100, table);
    return { table, import10k, import100k, import1M, poissonSample1M: await samplingCase(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') await childImport(process.argv[3], process.argv[4], process.argv[5] === 'after');
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--raw') await childRaw(process.argv[3], process.argv[4]);
