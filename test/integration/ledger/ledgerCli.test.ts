/**
 * `veil budget` and `veil ledger` end to end on a real data directory: set a budget,
 * record an external release from an event file, show, remaining, export (JSON, CSV),
 * the printable report, verify; bad input is one line on stderr and a non-zero exit.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountEpsilon } from '../../../core/accounting';
import { composed, laplace, pureDp } from '../../../core/accounting/events';
import { runCli } from '../../../electron/cli/main';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';

let dir: string;
let dataDir: string;
let out: string[];
let err: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-ledger-cli-'));
  dataDir = ensureDataDir(join(dir, 'data'));
  const ctx = new ServiceContext(dataDir, 'cli');
  await callMethod(ctx, 'vault.createDataset', { name: 'notes', labels: ['a', 'b'] });
  await callMethod(ctx, 'vault.addRecords', { dataset: 'notes', records: Array.from({ length: 50 }, (_, i) => ({ text: `public test line ${i}`, label: i % 2 ? 'a' : 'b' })) });
  await ctx.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

const veil = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
const json = () => JSON.parse(out.join(''));

describe('veil budget / veil ledger', () => {
  it('sets a budget with the default δ = min(1/(10·N), 1e-5), N exact where the size is declared public', async () => {
    expect(await veil('sizes', 'set', '--dataset', 'notes', '--public')).toBe(0);
    expect(out.join('')).toMatch(/declared public/);
    out.length = 0;
    expect(await veil('budget', 'set', '--dataset', 'notes', '--epsilon', '4', '--json')).toBe(0);
    expect(json().budget).toMatchObject({ epsilon: 4, delta: 1e-5, privacyUnits: 50 });
  });

  it('records an external release and shows the spend fall into the remaining budget', async () => {
    const eventFile = join(dir, 'event.json');
    writeFileSync(eventFile, JSON.stringify({ kind: 'laplace', scale: 2, sensitivity: 1 }));
    expect(await veil('ledger', 'record', '--dataset', 'notes', '--event', eventFile, '--purpose', 'a count published in a report', '--json')).toBe(0);
    const recorded = json();
    expect(recorded.reservation).toMatchObject({ type: 'reserve', status: 'committed', purpose: 'a count published in a report' });
    // Laplace(b = 2, Δ = 1) is 0.5-DP; at δ = 1e-5 its ε is a little lower.
    expect(recorded.summary.spent.epsilon.upper).toBeLessThanOrEqual(0.5);
    expect(recorded.summary.spent.epsilon.upper).toBeGreaterThan(0.45);
    out.length = 0;
    expect(await veil('ledger', 'remaining', '--dataset', 'notes', '--event', eventFile, '--json')).toBe(0);
    // Basic composition already admits 7 more (0.5 + 7 × 0.5 = 4 = cap); PLD finds more. The
    // answer must be the largest N with ε(N + 1 such releases) ≤ cap, asked of the accountant
    // directly (here N = 8: ε ≈ 3.995 for 9 releases, ≈ 4.28 for 10).
    const { count, atLimit } = json();
    const epsilonOf = (releases: number) => accountEpsilon(composed(laplace(2, 1), releases), 1e-5, { crossCheck: false }).bounds.upper;
    expect(count).toBeGreaterThanOrEqual(7);
    expect(epsilonOf(1 + count)).toBeLessThanOrEqual(4);
    expect(epsilonOf(2 + count)).toBeGreaterThan(4);
    expect(atLimit).toBe(false);
  });

  it('refuses an over-budget release in one line, writing nothing', async () => {
    const eventFile = join(dir, 'big.json');
    writeFileSync(eventFile, JSON.stringify({ kind: 'pure', epsilon: 10 }));
    expect(await veil('ledger', 'record', '--dataset', 'notes', '--event', eventFile, '--purpose', 'too much')).toBe(1);
    expect(err.join('')).toMatch(/^veil: privacy budget exceeded for dataset "notes".*cap ε=4/);
    expect(err.join('').trim().split('\n')).toHaveLength(1);
    out.length = 0;
    await veil('ledger', 'show', '--dataset', 'notes', '--json');
    expect(json().entries.filter((e: { type: string }) => e.type === 'reserve')).toHaveLength(1);
  });

  it('refuses to raise δ once the dataset has charges (the spend would fall), writing nothing; lowering δ is allowed', async () => {
    await veil('budget', 'show', '--dataset', 'notes', '--json');
    const before = json();
    expect(before.spent.epsilon.upper).toBeGreaterThan(0.45);
    out.length = 0;
    expect(await veil('budget', 'set', '--dataset', 'notes', '--epsilon', '4', '--delta', '0.5')).toBe(1);
    expect(err.join('')).toMatch(/^veil: δ cannot be raised from 1\.00e-5 to 5\.00e-1 on dataset "notes": it has charges.*Lowering δ is allowed/);
    expect(err.join('').trim().split('\n')).toHaveLength(1);
    await veil('budget', 'show', '--dataset', 'notes', '--json');
    expect(json()).toMatchObject({ entries: before.entries, spent: before.spent, budget: { delta: 1e-5 } });
    out.length = 0;
    expect(await veil('budget', 'set', '--dataset', 'notes', '--epsilon', '4', '--delta', '1e-6', '--json')).toBe(0);
    expect(json().budget.delta).toBe(1e-6);
    // No δ given: the default min(1/(10·N), 1e-5) = 1e-5 would raise it; the δ in force is kept.
    out.length = 0;
    expect(await veil('budget', 'set', '--dataset', 'notes', '--epsilon', '4', '--json')).toBe(0);
    expect(json().budget.delta).toBe(1e-6);
    expect(await veil('budget', 'set', '--dataset', 'notes', '--epsilon', '4', '--delta', '1e-5')).toBe(1);
  });

  it('refuses a release under another neighbouring relation, writing nothing, and keeps charging', async () => {
    const eventFile = join(dir, 'replace.json');
    writeFileSync(eventFile, JSON.stringify({ kind: 'gaussian', sigma: 20, sensitivity: 1, neighbouring: 'replace-one' }));
    expect(await veil('ledger', 'record', '--dataset', 'notes', '--event', eventFile, '--purpose', 'replace-one release')).toBe(1);
    expect(err.join('')).toMatch(/^veil: the ledger of dataset "notes" would mix neighbouring relations \(add-remove and replace-one\).*nothing was recorded\n$/);
    out.length = 0;
    await veil('ledger', 'show', '--dataset', 'notes', '--json');
    expect(json().entries.filter((e: { type: string }) => e.type === 'reserve')).toHaveLength(1);
    // The dataset is not locked: add/remove releases are still charged.
    writeFileSync(eventFile, JSON.stringify({ kind: 'gaussian', sigma: 20, sensitivity: 1 }));
    out.length = 0;
    expect(await veil('ledger', 'record', '--dataset', 'notes', '--event', eventFile, '--purpose', 'add/remove release', '--json')).toBe(0);
    expect(json().reservation).toMatchObject({ status: 'committed' });
  });

  it('exports JSON and CSV, writes the printable report, and verifies', async () => {
    expect(await veil('ledger', 'export', '--dataset', 'notes', '--json')).toBe(0);
    const exported = json();
    out.length = 0;
    expect(await veil('ledger', 'export', '--dataset', 'notes', '--csv')).toBe(0);
    expect(out.join('').split('\n')[0]).toMatch(/seq.*type.*purpose/);
    out.length = 0;
    const report = join(dir, 'report.html');
    expect(await veil('ledger', 'report', '--dataset', 'notes', '--out', report, '--json')).toBe(0);
    const { head } = json();
    const html = readFileSync(report, 'utf8');
    expect(html).toContain(head);
    expect(html).toContain('a count published in a report');
    expect(JSON.stringify(exported)).toContain(head);
    out.length = 0;
    expect(await veil('ledger', 'verify', '--expect-head', head)).toBe(0);
    expect(out.join('')).toMatch(/ledger OK/);
    expect(await veil('ledger', 'verify', '--expect-head', 'f'.repeat(64))).toBe(1);
    expect(err.join('')).toMatch(/expected chain head .* is not in the ledger/);
  });

  it('rejects bad flags clearly', async () => {
    expect(await veil('budget', 'set', '--dataset', 'notes', '--epsilon', 'lots')).toBe(2);
    expect(err.join('')).toMatch(/--epsilon must be a number/);
    expect(await veil('sizes', 'set', '--dataset', 'notes')).toBe(2);
    expect(err.join('')).toMatch(/exactly one of --public or --private/);
  });
});

describe('veil ledger: files and text the user gives', () => {
  const reserves = async () => {
    out.length = 0;
    await veil('ledger', 'show', '--dataset', 'notes', '--json');
    const count = json().entries.filter((e: { type: string }) => e.type === 'reserve').length;
    out.length = 0;
    return count;
  };
  const oneLine = () => {
    const text = err.join('');
    expect(text.endsWith('\n') && text.indexOf('\n') === text.length - 1).toBe(true);
    return text;
  };

  it.each([
    ['record', ['ledger', 'record', '--dataset', 'notes', '--purpose', 'x', '--event']],
    ['remaining', ['ledger', 'remaining', '--dataset', 'notes', '--event']],
    ['record --parameters', ['ledger', 'record', '--dataset', 'notes', '--purpose', 'x', '--event', 'EVENT', '--parameters']],
  ])('%s: a file that is not JSON is one line saying where, quoting none of it, and nothing is recorded', async (_name, args) => {
    const before = await reserves();
    const privateFile = join(dir, 'private.txt');
    writeFileSync(privateFile, 'Patient Jane Doe HIV positive\nward 3, bed 2');
    const eventFile = join(dir, 'event-ok.json');
    writeFileSync(eventFile, JSON.stringify({ kind: 'laplace', scale: 20, sensitivity: 1 }));
    expect(await veil(...args.map((a) => (a === 'EVENT' ? eventFile : a)), privateFile)).toBe(2);
    const flag = args.includes('--parameters') ? '--parameters' : '--event';
    expect(oneLine()).toBe(`veil: ${flag} ${privateFile} is not valid JSON (line 1, column 1)\n`);
    expect(await reserves()).toBe(before);
  });

  it('names the fields of an event that is not a privacy event, never their values', async () => {
    const file = join(dir, 'not-event.json');
    writeFileSync(file, JSON.stringify({ kind: 'laplace', scale: 'Jane Doe', sensitivity: 1 }));
    expect(await veil('ledger', 'record', '--dataset', 'notes', '--event', file, '--purpose', 'x')).toBe(2);
    expect(oneLine()).toBe(`veil: --event ${file} is not a privacy event: scale: Invalid input: expected number, received string\n`);
    const parameters = join(dir, 'parameters.json');
    writeFileSync(parameters, JSON.stringify({ 'Jane Doe has HIV': { nested: true } }));
    err.length = 0;
    writeFileSync(file, JSON.stringify({ kind: 'laplace', scale: 20, sensitivity: 1 }));
    expect(await veil('ledger', 'record', '--dataset', 'notes', '--event', file, '--purpose', 'x', '--parameters', parameters)).toBe(2);
    expect(oneLine()).toBe(`veil: --parameters ${parameters}: …: Invalid input\n`);
  });

  it('refuses a blank --purpose, as the app does, recording nothing', async () => {
    const before = await reserves();
    const file = join(dir, 'event-ok.json');
    for (const purpose of ['', '   ', '\t\n']) {
      err.length = 0;
      expect(await veil('ledger', 'record', '--dataset', 'notes', '--event', file, '--purpose', purpose)).toBe(2);
      expect(oneLine()).toBe('veil: --purpose is blank: say what was released and why (no private text)\n');
    }
    expect(await reserves()).toBe(before);
  });

  it('export and report --out: never over an existing file without --overwrite, never into a directory', async () => {
    const exported = join(dir, 'ledger.csv');
    expect(await veil('ledger', 'export', '--dataset', 'notes', '--csv', '--out', exported)).toBe(0);
    const first = readFileSync(exported, 'utf8');
    expect(statSync(exported).mode & 0o777).toBe(0o600);
    writeFileSync(exported, 'my notes');
    expect(await veil('ledger', 'export', '--dataset', 'notes', '--json', '--out', exported)).toBe(2);
    expect(oneLine()).toBe(`veil: --out ${exported} exists; add --overwrite to replace it\n`);
    expect(readFileSync(exported, 'utf8')).toBe('my notes');
    expect(await veil('ledger', 'export', '--dataset', 'notes', '--csv', '--out', exported, '--overwrite')).toBe(0);
    expect(readFileSync(exported, 'utf8')).toBe(first);

    err.length = 0;
    expect(await veil('ledger', 'export', '--dataset', 'notes', '--out', dir)).toBe(2);
    expect(oneLine()).toBe(`veil: --out ${dir} is a directory; name a file\n`);
    err.length = 0;
    expect(await veil('ledger', 'export', '--dataset', 'notes', '--out', join(dir, 'missing', 'l.json'))).toBe(2);
    expect(oneLine()).toBe(`veil: --out ${join(dir, 'missing', 'l.json')}: the folder ${join(dir, 'missing')} does not exist\n`);

    const report = join(dir, 'kept.html');
    writeFileSync(report, 'mine');
    err.length = 0;
    expect(await veil('ledger', 'report', '--dataset', 'notes', '--out', report)).toBe(2);
    expect(oneLine()).toBe(`veil: --out ${report} exists; add --overwrite to replace it\n`);
    expect(readFileSync(report, 'utf8')).toBe('mine');
    expect(await veil('ledger', 'report', '--dataset', 'notes', '--out', report, '--overwrite')).toBe(0);
    expect(readFileSync(report, 'utf8')).toMatch(/^<!doctype html>/i);
  });
});

describe('veil ledger verify on a tampered ledger', () => {
  it('lists every problem in text as --json does, the first marked as the first bad entry; stderr names the first', async () => {
    const tampered = ensureDataDir(join(dir, 'tampered'));
    const ctx = new ServiceContext(tampered, 'cli');
    await callMethod(ctx, 'vault.createDataset', { name: 't' });
    await callMethod(ctx, 'vault.addRecords', { dataset: 't', records: Array.from({ length: 20 }, (_, i) => ({ text: `line ${i}` })) });
    await callMethod(ctx, 'budget.set', { dataset: 't', epsilon: 10 });
    for (const purpose of ['first', 'second', 'third']) await callMethod(ctx, 'ledger.record', { dataset: 't', event: pureDp(0.5), purpose });
    await ctx.close();
    // Edit two purposes in the file itself (the triggers that forbid it dropped and restored).
    const db = new sqlite3.Database(join(tampered, 'veil.sqlite'));
    const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve())));
    const triggers = await new Promise<{ sql: string }[]>((resolve, reject) =>
      db.all("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger_entries'", (e, rows: { sql: string }[]) => (e ? reject(e) : resolve(rows))),
    );
    await exec("DROP TRIGGER ledger_entries_no_update; UPDATE ledger_entries SET purpose = 'edited' WHERE purpose IN ('first', 'third');");
    for (const t of triggers.filter((t) => /no_update/.test(t.sql))) await exec(t.sql);
    await new Promise<void>((resolve) => db.close(() => resolve()));

    const verify = (...args: string[]) => runCli(['ledger', 'verify', '--data-dir', tampered, ...args]);
    expect(await verify('--json')).toBe(1);
    const { problems } = json() as { problems: { entryId: number | null; field: string }[] };
    expect(problems.length).toBeGreaterThanOrEqual(2);
    out.length = 0;
    err.length = 0;
    expect(await verify()).toBe(1);
    const text = out.join('');
    expect(text).toContain(`${problems.length} problem(s):\n`);
    const listed = text.split('\n').filter((line) => /^ {2}(entry|dataset) /.test(line));
    expect(listed).toHaveLength(problems.length);
    expect(listed[0]).toMatch(/ {2}← first bad entry$/);
    expect(listed.slice(1).some((line) => line.includes('first bad entry'))).toBe(false);
    problems.forEach((p, i) => expect(listed[i]).toContain(p.entryId === null ? 'dataset ' : `entry ${p.entryId} `));
    expect(err.join('')).toMatch(new RegExp(`^veil: ledger verification failed at entry ${problems[0].entryId} .*\\(and ${problems.length - 1} more problems?\\)\n$`));
  });
});
