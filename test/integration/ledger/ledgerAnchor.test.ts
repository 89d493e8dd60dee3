/**
 * The ledger anchor (electron/services/ledger/anchor.ts) on real SQLite files: entries cut
 * from the end with the guard triggers dropped and put back, and a chain re-hashed from
 * scratch with a raised cap, both verify on the hash chain alone; the anchor file beside
 * the database catches them at verify and at the next reservation. A copy of the anchor
 * kept elsewhere catches a rewrite of the database and the local anchor together.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { pureDp } from '../../../core/accounting/events';
import { callMethod } from '../../../electron/services/api';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { DATABASE_FILE, openAppDatabase } from '../../../electron/services/db/appDatabase';
import { ANCHOR_FILE } from '../../../electron/services/ledger/anchor';
import { hashEntry } from '../../../electron/services/ledger/hashChain';
import { getLedgerService } from '../../../electron/services/ledger/ledgerService';
import { readChain } from '../../../electron/services/ledger/ledgerStore';
import { withServices as withContext } from '../../../electron/cli/withServices';

const root = mkdtempSync(join(tmpdir(), 'veil-anchor-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const run = promisify(execFile);

/** A dataset "d" with a cap of 2 and three releases of ε 0.5 recorded. */
async function chargedDataDir(name: string): Promise<string> {
  const dataDir = ensureDataDir(join(root, name));
  await withContext(dataDir, async (ctx) => {
    await callMethod(ctx, 'vault.createDataset', { name: 'd', labels: ['a'] });
    await callMethod(ctx, 'budget.set', { dataset: 'd', epsilon: 2, delta: 1e-6 });
    for (let i = 0; i < 3; i++) await callMethod(ctx, 'ledger.record', { dataset: 'd', event: pureDp(0.5), purpose: `release ${i}` });
  });
  return dataDir;
}

/** Edits the ledger as someone with the file would: guard triggers dropped, `edit` run, triggers put back. */
async function editLedger(dataDir: string, edit: (db: Awaited<ReturnType<typeof openAppDatabase>>) => Promise<void>): Promise<void> {
  const db = await openAppDatabase(join(dataDir, DATABASE_FILE));
  try {
    const triggers = await db.all<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger_entries'");
    await db.exec('DROP TRIGGER ledger_entries_no_update; DROP TRIGGER ledger_entries_no_delete;');
    await edit(db);
    for (const t of triggers) await db.exec(t.sql);
  } finally {
    await db.close();
  }
}

/** Raises the cap and re-hashes the whole chain from the genesis: a consistent, forged chain. */
async function rehashWithCap(dataDir: string, cap: number): Promise<void> {
  await editLedger(dataDir, async (db) => {
    await db.run(`UPDATE ledger_entries SET epsilon_cap = $cap WHERE type = 'budget'`, { cap });
    let prevHash = '0'.repeat(64);
    for (const entry of await readChain(db)) {
      const forged = { ...entry, prevHash };
      forged.entryHash = await hashEntry(forged);
      await db.run('UPDATE ledger_entries SET prev_hash = $prev, entry_hash = $hash WHERE id = $id', { prev: prevHash, hash: forged.entryHash, id: entry.id });
      prevHash = forged.entryHash;
    }
  });
}

const verify = (dataDir: string, anchorCopy?: string) => withContext(dataDir, (ctx) => callMethod(ctx, 'ledger.verify', { anchorCopy }));
const reserveMore = (dataDir: string) => withContext(dataDir, async (ctx) => (await getLedgerService(ctx)).reserve('d', pureDp(0.5), { purpose: 'one more' }));

describe('the ledger anchor', () => {
  it('catches entries cut from the end (triggers dropped and put back): verify fails and the next reservation is refused', async () => {
    const dataDir = await chargedDataDir('truncated');
    expect((await verify(dataDir)).ok).toBe(true);
    await editLedger(dataDir, (db) => db.run('DELETE FROM ledger_entries WHERE id IN (SELECT id FROM ledger_entries ORDER BY seq DESC LIMIT 4)').then(() => undefined));
    const report = await verify(dataDir);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual(expect.objectContaining({ field: 'anchor', message: expect.stringMatching(/records position #7 .* but its chain has 3 entries: entries were removed from the end/) }));
    await expect(reserveMore(dataDir)).rejects.toThrow(/fails verification .*anchor.*removed from the end.*no release is charged/);
  });

  it('catches a chain re-hashed from scratch with a raised cap', async () => {
    const dataDir = await chargedDataDir('rehashed');
    await rehashWithCap(dataDir, 100);
    const report = await verify(dataDir);
    expect(report.problems.map((p) => p.field)).toEqual(['anchor']); // the chain itself is consistent
    expect(report.problems[0].message).toMatch(/the chain was rewritten/);
    await expect(reserveMore(dataDir)).rejects.toThrow(/the chain was rewritten/);
  });

  it('catches a deleted anchor file, and an edited line', async () => {
    const dataDir = await chargedDataDir('deleted');
    const file = join(dataDir, ANCHOR_FILE);
    const lines = readFileSync(file, 'utf8');
    expect(lines.trim().split('\n')).toHaveLength(7); // the budget, three reservations and three commits
    unlinkSync(file);
    expect((await verify(dataDir)).problems[0].message).toMatch(/the anchor file .* is missing/);
    writeFileSync(file, `${lines}not a line\n`);
    expect((await verify(dataDir)).problems[0].message).toMatch(/line 8 of the anchor file .* is not an anchor line/);
  });

  it('exports a copy that catches a rewrite of the database and the local anchor together, and prints the head in the report', async () => {
    const dataDir = await chargedDataDir('copied');
    const { content, heads } = await withContext(dataDir, (ctx) => callMethod(ctx, 'ledger.anchor', { dataset: 'd' }));
    expect(heads).toEqual([expect.objectContaining({ seq: 7 })]);
    const { html } = await withContext(dataDir, (ctx) => callMethod(ctx, 'ledger.report', { dataset: 'd' }));
    expect(html).toContain(`position #7: <code>${heads[0].hash}</code>`);
    await rehashWithCap(dataDir, 100);
    unlinkSync(join(dataDir, ANCHOR_FILE));
    await editLedger(dataDir, (db) => db.run('DELETE FROM ledger_anchor').then(() => undefined)); // anchoring starts afresh from the forged heads
    expect((await verify(dataDir)).ok).toBe(true);
    const withCopy = await verify(dataDir, content);
    expect(withCopy.problems).toEqual([expect.objectContaining({ field: 'anchor', message: expect.stringMatching(/the anchor copy records position #7 .* the chain was rewritten/) })]);
  });

  it('is used by the CLI: ledger anchor --out, verify --anchor, and the ledger named as such for a missing head', async () => {
    const dataDir = await chargedDataDir('cli');
    const copy = join(root, 'cli-anchor.jsonl');
    const veil = (...args: string[]) => run(process.execPath, ['bin/veil.mjs', ...args, '--data-dir', dataDir]).then((r) => ({ code: 0, ...r }), (e: { code: number; stdout: string; stderr: string }) => e);
    expect((await veil('ledger', 'anchor', '--dataset', 'd', '--out', copy)).stdout).toMatch(/wrote .*cli-anchor.jsonl \(dataset \d+ #7 [0-9a-f]{64}\)/);
    expect((await veil('ledger', 'verify', '--anchor', copy)).code).toBe(0);
    const missing = await veil('ledger', 'verify', '--expect-head', 'f'.repeat(64));
    expect(missing.stderr).toMatch(/^veil: ledger verification failed at the ledger: head the expected chain head/);
    const report = await veil('ledger', 'report');
    expect(report.stderr.trim().split('\n')).toEqual(['veil: ledger report needs --dataset <name> and --out <file>']);
  }, 120_000);
});
