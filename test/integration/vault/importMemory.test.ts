/**
 * Streaming import does not load the file into memory (docs/vault.md, "Streaming and
 * memory": the file is read in 1 MiB chunks and rows are written in batches, "so memory does
 * not grow with the file"). A child process with a V8 heap far smaller than the file imports
 * a ≈ 72 MB CSV through the real `vault.import` job into a real data directory: it must exit 0
 * with every row accepted — a reader that holds the file (or all its rows) as strings dies
 * with a heap OOM. Off-heap memory (a Buffer of the whole file) is caught by peak RSS: a second
 * child imports a quarter of the rows, and the large import's peak RSS may exceed the small
 * one's by at most half the difference in file size (measured: ±5 MB; a whole-file Buffer adds
 * the full ≈ 54 MB difference).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Old-space limit of the child, MiB: the large file is ≈ 1.5 times that. */
const HEAP_MB = 48;
const LARGE_ROWS = 140_000;
const SMALL_ROWS = LARGE_ROWS / 4;
const CHILD = join(import.meta.dirname, 'importMemoryChild.ts');
const WORDS = 'patient reported mild pain in the left knee after running was advised rest ice and elevation follow up two weeks the invoice attached please review meeting moved to thursday afternoon budget quarterly figures account suspended verify your details'.split(' ');

interface ChildResult {
  status: string;
  error: string | null;
  rowsRead: number | null;
  accepted: number | null;
  duplicates: number | null;
  badRows: number | null;
  bytes: number | null;
  seconds: number;
  baselineRss: number;
  peakRss: number;
  heapLimit: number;
}

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  result: ChildResult | null;
}

/**
 * Writes a CSV (text, label) of `rows` distinct rows of ≈ 500 characters of prose, every tenth
 * with an e-mail address and a phone number for the PII scan, streamed to disk. Returns its size.
 */
async function writeCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  out.write('text,label\n');
  for (let i = 0; i < rows; i++) {
    let text = `Record ${i}.`;
    if (i % 10 === 0) text += ` Contact person${i}@example.org or +1 415 555 ${String(i % 10_000).padStart(4, '0')}.`;
    for (let k = 0; text.length < 500; k++) text += ` ${WORDS[(i * 31 + k * 7 + ((k * k) % 13)) % WORDS.length]}`;
    if (!out.write(`"${text}, done",${i % 3 ? 'ham' : 'spam'}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return statSync(path).size;
}

/** Imports `csv` into a fresh data directory in a child process with a HEAP_MB old space. */
function importInChild(csv: string, dataDir: string): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', CHILD, dataDir, csv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const line = stdout.trim().split('\n').pop();
      resolve({ code, signal, stderr, result: code === 0 && line ? (JSON.parse(line) as ChildResult) : null });
    });
  });
}

const MB = 2 ** 20;
let dir: string;
let small: { csv: string; bytes: number };
let large: { csv: string; bytes: number };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-import-memory-'));
  small = { csv: join(dir, 'small.csv'), bytes: 0 };
  large = { csv: join(dir, 'large.csv'), bytes: 0 };
  small.bytes = await writeCsv(small.csv, SMALL_ROWS);
  large.bytes = await writeCsv(large.csv, LARGE_ROWS);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('streaming import memory', () => {
  it(`imports a CSV ≈ 1.5 × its V8 heap (${HEAP_MB} MiB) with peak RSS that does not grow with the file`, async () => {
    expect(large.bytes).toBeGreaterThan(1.4 * HEAP_MB * MB);

    const big = await importInChild(large.csv, join(dir, 'data-large'));
    expect(big.code, `child exited with ${big.code ?? big.signal}; stderr:\n${big.stderr}`).toBe(0);
    expect(big.result).toMatchObject({ status: 'succeeded', error: null, rowsRead: LARGE_ROWS, accepted: LARGE_ROWS, duplicates: 0, badRows: 0, bytes: large.bytes });

    const few = await importInChild(small.csv, join(dir, 'data-small'));
    expect(few.code, `child exited with ${few.code ?? few.signal}; stderr:\n${few.stderr}`).toBe(0);
    expect(few.result).toMatchObject({ status: 'succeeded', accepted: SMALL_ROWS });

    const growth = big.result!.peakRss - few.result!.peakRss;
    // A file held in memory would add at least the size difference (as UTF-16 strings, twice
    // that). Streaming leaves what V8 keeps: the large import may run its old space up to the
    // 48 MiB cap while the small one stops short of it, so measured growth ranged 16–34 MiB
    // (52 MiB apart in file size); three quarters of the difference keeps both apart.
    const limit = ((large.bytes - small.bytes) * 3) / 4;
    expect(growth, `peak RSS ${(big.result!.peakRss / MB).toFixed(0)} MiB for ${(large.bytes / MB).toFixed(0)} MiB vs ${(few.result!.peakRss / MB).toFixed(0)} MiB for ${(small.bytes / MB).toFixed(0)} MiB`).toBeLessThan(limit);
  }, 600_000); // two child imports (175k rows): minutes on a loaded 2-core machine
});
