/**
 * Atomicity of imports against a killed process: a child process imports a large CSV and
 * is killed with SIGKILL while reading and again while committing; the vault must then
 * hold all of that import or none of it (records, imports row, full-text index), and
 * `PRAGMA integrity_check` must say ok. A run left alone imports everything.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { DATABASE_FILE, openAppDatabase } from '../../../electron/services/db/appDatabase';
import { ensureDataDir } from '../../../electron/services/dataDir';

const ROWS = 40_000;
const CHILD = join(import.meta.dirname, 'importKillChild.ts');
let dir: string;
let dataDir: string;
let csv: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-atomic-'));
  dataDir = ensureDataDir(join(dir, 'data'));
  csv = join(dir, 'big.csv');
  const filler = 'the quick brown fox jumps over the lazy dog, '.repeat(6);
  writeFileSync(csv, `text,label\n${Array.from({ length: ROWS }, (_, i) => `"record ${i}: ${filler}",${i % 2 ? 'spam' : 'ham'}`).join('\n')}\n`);
  const ctx = new ServiceContext(dataDir, 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'big', labels: ['spam', 'ham'] });
  await ctx.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child; `killWhen` sees each progress event and says when to SIGKILL. Resolves to the child's last status line. */
function runChild(killWhen: (progress: { stage: string; done: number; total: number }) => boolean): Promise<{ killed: boolean; last: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, csv], { stdio: ['ignore', 'pipe', 'inherit'] });
    let killed = false;
    let last = '';
    createInterface({ input: child.stdout }).on('line', (line) => {
      last = line;
      if (!killed && line.includes('"stage"') && killWhen(JSON.parse(line))) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve({ killed, last }));
  });
}

async function vaultState() {
  const db = await openAppDatabase(join(dataDir, DATABASE_FILE));
  try {
    const count = async (sql: string) => (await db.get<{ n: number }>(sql))!.n;
    await db.exec(`INSERT INTO records_fts (records_fts) VALUES ('integrity-check')`);
    return {
      integrity: (await db.get<{ integrity_check: string }>('PRAGMA integrity_check'))!.integrity_check,
      records: await count('SELECT COUNT(*) AS n FROM records'),
      imports: await count('SELECT COUNT(*) AS n FROM imports'),
      indexed: await count(`SELECT COUNT(*) AS n FROM records_fts WHERE records_fts MATCH 'fox'`),
      counted: await count('SELECT COALESCE(SUM(n), 0) AS n FROM record_counts'), // migration 21's counts, added by the bulk load
      countTriggers: await count(`SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'record_counts_%'`),
    };
  } finally {
    await db.close();
  }
}

describe('import atomicity under SIGKILL', () => {
  it('a process killed while reading leaves none of the import', async () => {
    const run = await runChild((p) => p.stage === 'reading' && p.done > p.total / 4);
    expect(run.killed).toBe(true);
    expect(await vaultState()).toEqual({ integrity: 'ok', records: 0, imports: 0, indexed: 0, counted: 0, countTriggers: 3 });
  });

  it('a process killed while committing leaves all of it or none of it', async () => {
    const run = await runChild((p) => p.stage === 'committing');
    expect(run.killed).toBe(true);
    const state = await vaultState();
    expect(state.integrity).toBe('ok');
    expect([{ records: 0, imports: 0, indexed: 0, counted: 0 }, { records: ROWS, imports: 1, indexed: ROWS, counted: ROWS }]).toContainEqual({ records: state.records, imports: state.imports, indexed: state.indexed, counted: state.counted });
    expect(state.countTriggers).toBe(3);
  });

  it('a run left alone imports every row exactly once', async () => {
    const run = await runChild(() => false);
    expect(run.last).toBe('{"status":"succeeded"}');
    const state = await vaultState();
    expect(state).toMatchObject({ integrity: 'ok', records: ROWS, indexed: ROWS, counted: ROWS, countTriggers: 3 });
    expect(state.imports).toBeGreaterThanOrEqual(1);
  });
});
