/**
 * `npm run bench`: runs every `bench/*.bench.ts` (each exports `run(): Promise<object>`),
 * prints the combined JSON and writes it to `bench/results/<timestamp>.json`.
 * Optional filter: `npm run bench -- accounting` runs only files whose name contains it.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { formatRows, type TableRow } from './table';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();
const results: Record<string, unknown> = {
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: os.totalmem() / 2 ** 30, node: process.version },
  startedAt: new Date().toISOString(),
};
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  process.stderr.write(`bench: ${name}…\n`);
  const mod = (await import(join(here, file))) as { run: () => Promise<unknown> };
  results[name] = await mod.run();
}
const json = JSON.stringify(results, null, 2);
const outDir = join(here, 'results');
mkdirSync(outDir, { recursive: true });
const outFile = join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(outFile, json);
process.stdout.write(`${json}\n`);
process.stderr.write(`bench: wrote ${outFile}\n`);
// Issue 18's table: every benchmark's `table` rows, with target and ratio to the in-run reference.
const rows = Object.values(results).flatMap((r) => ((r as { table?: TableRow[] } | null)?.table ?? []));
if (rows.length > 0) process.stderr.write(`bench: where users wait (load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})\n${formatRows(rows)}\n`);
