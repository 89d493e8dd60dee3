/**
 * Releases charged as (ε, δ₀)-DP. Below δ₀ such a release has no finite ε, so the ε(δ) curve
 * of a ledger holding one has points at ∞: they must be stated as "Infinity" (JSON has no
 * Infinity), never crash a summary, a report or an export, and never make a recorded release
 * look unrecorded. A release whose δ₀ is above the dataset's δ has no finite ε there at all
 * and is refused, writing nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { approxDp } from '../../../core/accounting/events';
import { runCli } from '../../../electron/cli/main';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { LedgerService } from '../../../electron/services/ledger/ledgerService';

let dir: string;
let dataDir: string;
let out: string[];
let err: string[];

async function withContext<T>(work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  const ctx = new ServiceContext(dataDir, 'cli');
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veil-ledger-approx-'));
  dataDir = ensureDataDir(join(dir, 'data'));
  await withContext(async (ctx) => {
    for (const name of ['api', 'cli']) {
      await callMethod(ctx, 'vault.createDataset', { name, labels: ['a'] });
      await callMethod(ctx, 'vault.addRecords', { dataset: name, records: [{ text: 'one public line', label: 'a' }] });
      await callMethod(ctx, 'budget.set', { dataset: name, epsilon: 4, delta: 1e-6 });
    }
  });
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
const takeJson = () => {
  const value = JSON.parse(out.join(''));
  out.length = 0;
  return value;
};
const eventFile = (name: string, event: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(event));
  return path;
};

/**
 * The curve at δ·10^k, k = −4 … 1: infinite below δ₀ = 1e-8, exactly ε₀ = 1 at δ₀ itself (1e-6·10⁻²
 * is the double 1e-8; the PLD accountant prices a lone (ε₀, δ₀) release in closed form, so this
 * holds by construction, not by the FFT's rounding), finite and ≤ 1 above.
 */
function expectHonestCurve(curve: { delta: number; epsilon: number | string }[]): void {
  expect(curve.map((p) => p.delta)).toEqual([1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5].map((d) => expect.closeTo(d, 20)));
  expect(curve.slice(0, 2).map((p) => p.epsilon)).toEqual(['Infinity', 'Infinity']);
  expect(curve[2]).toEqual({ delta: 1e-8, epsilon: 1 });
  for (const p of curve.slice(3)) {
    expect(typeof p.epsilon).toBe('number');
    expect(p.epsilon).toBeLessThanOrEqual(1);
    expect(p.epsilon).toBeGreaterThan(0.99);
  }
}

describe('an (ε, δ₀) release with δ₀ below the dataset δ', () => {
  it('through the API: record, summary, entries, report, exports and verify all succeed; the curve says ∞ below δ₀', async () => {
    await withContext(async (ctx) => {
      const recorded = await callMethod(ctx, 'ledger.record', { dataset: 'api', event: approxDp(1, 1e-8), purpose: 'an external (1, 1e-8)-DP count' });
      expect(recorded.reservation).toMatchObject({ type: 'reserve', status: 'committed', commitId: recorded.commit.id });
      expect(recorded.commit).toMatchObject({ type: 'commit', reservationId: recorded.reservation.id });
      expect(recorded.reservation.spentEpsilon).toBeLessThanOrEqual(1);

      const summary = await callMethod(ctx, 'ledger.summary', { dataset: 'api' });
      expect(summary.spent.epsilon.upper).toBeLessThanOrEqual(1);
      expect(summary.remainingEpsilon).toBeGreaterThanOrEqual(3);
      expectHonestCurve(summary.curve);
      expect((await callMethod(ctx, 'ledger.entries', { dataset: 'api' })).map((e) => e.type)).toEqual(['budget', 'reserve', 'commit']);

      const report = await callMethod(ctx, 'ledger.report', { dataset: 'api' });
      expect(report.html).toContain('<svg');
      expect(report.html).toMatch(/No finite ε at δ = 1e-10, 1e-9 \(ε = ∞ there\)/);
      const exported = JSON.parse((await callMethod(ctx, 'ledger.export', { dataset: 'api', format: 'json' })).content);
      expectHonestCurve(exported.curve);
      expect(exported.spent).toEqual(summary.spent);
      const csv = (await callMethod(ctx, 'ledger.export', { dataset: 'api', format: 'csv' })).content;
      expect(csv.split('\r\n').filter(Boolean)).toHaveLength(4);

      // What is left: the same release fits three more times (4 × ε ≤ 1 each, δ₀ adding up to 4e-8 < 1e-6).
      const left = await callMethod(ctx, 'ledger.remaining', { dataset: 'api', event: approxDp(1, 1e-8) });
      expect(left.count).toBeGreaterThanOrEqual(3);
      expect(await callMethod(ctx, 'ledger.verify', { dataset: 'api' })).toMatchObject({ ok: true });
    });
  });

  it('through the CLI: record exits 0 with the committed entry; show, budget show, export and verify succeed', async () => {
    const event = eventFile('approx.json', { kind: 'approx', epsilon: 1, delta: 1e-8 });
    expect(await veil('ledger', 'record', '--dataset', 'cli', '--event', event, '--purpose', 'external release', '--json')).toBe(0);
    expect(err.join('')).toBe('');
    const recorded = takeJson();
    expect(recorded.reservation).toMatchObject({ type: 'reserve', status: 'committed' });
    expectHonestCurve(recorded.summary.curve);

    expect(await veil('ledger', 'show', '--dataset', 'cli')).toBe(0);
    const text = out.join('');
    out.length = 0;
    expect(text).toMatch(/ε\(δ\) upper bounds: δ=1e-10 → ∞, δ=1e-9 → ∞, δ=1e-8 → 1\.000/);
    expect(text).toMatch(/∞: no finite ε at that δ/);
    expect(await veil('ledger', 'show', '--dataset', 'cli', '--json')).toBe(0);
    expectHonestCurve(takeJson().summary.curve);
    expect(await veil('budget', 'show', '--dataset', 'cli', '--json')).toBe(0);
    expectHonestCurve(takeJson().curve);
    expect(await veil('ledger', 'export', '--dataset', 'cli', '--json')).toBe(0);
    expectHonestCurve(takeJson().curve);
    expect(await veil('ledger', 'export', '--dataset', 'cli', '--csv')).toBe(0);
    expect(out.join('')).toMatch(/"\{""delta"":1e-8,""epsilon"":1,""kind"":""approx""/);
    out.length = 0;
    const report = join(dir, 'report.html');
    expect(await veil('ledger', 'report', '--dataset', 'cli', '--out', report)).toBe(0);
    expect(readFileSync(report, 'utf8')).toMatch(/No finite ε at δ = 1e-10, 1e-9/);
    out.length = 0;
    expect(await veil('ledger', 'verify', '--dataset', 'cli')).toBe(0);
    expect(out.join('')).toMatch(/ledger OK/);
    expect(err.join('')).toBe('');
  });
});

describe('an (ε, δ₀) release with δ₀ equal to the dataset δ', () => {
  it('is recorded at exactly ε₀ (its closed form, not the FFT: the grid once made it ∞ and refused it)', async () => {
    await withContext(async (ctx) => {
      await callMethod(ctx, 'vault.createDataset', { name: 'equal', labels: ['a'] });
      await callMethod(ctx, 'budget.set', { dataset: 'equal', epsilon: 4, delta: 1e-8 });
      const recorded = await callMethod(ctx, 'ledger.record', { dataset: 'equal', event: approxDp(1, 1e-8), purpose: 'an external (1, 1e-8)-DP count' });
      expect(recorded.reservation).toMatchObject({ status: 'committed', spentEpsilon: 1 });
      const summary = await callMethod(ctx, 'ledger.summary', { dataset: 'equal' });
      expect(summary.spent.epsilon).toEqual({ lower: 1, estimate: 1, upper: 1 });
      // A second one would need δ = 1 − (1 − 1e-8)² > 1e-8: no finite ε, so nothing more fits.
      expect(await callMethod(ctx, 'ledger.remaining', { dataset: 'equal', event: approxDp(1, 1e-8) })).toMatchObject({ count: 0 });
      expect(await callMethod(ctx, 'ledger.verify', { dataset: 'equal' })).toMatchObject({ ok: true });
    });
  });
});

describe('ledger record after the commit', () => {
  it('reports the committed entry and exits 0 even if the summary then fails (a retry would charge twice)', async () => {
    await withContext((ctx) => callMethod(ctx, 'vault.createDataset', { name: 'after', labels: ['a'] }));
    await withContext((ctx) => callMethod(ctx, 'budget.set', { dataset: 'after', epsilon: 4, delta: 1e-6 }));
    vi.spyOn(LedgerService.prototype, 'statement').mockRejectedValue(new Error('accounting broke'));
    const event = eventFile('laplace.json', { kind: 'laplace', scale: 2, sensitivity: 1 });
    expect(await veil('ledger', 'record', '--dataset', 'after', '--event', event, '--purpose', 'counted once', '--json')).toBe(0);
    const recorded = takeJson();
    expect(recorded).toMatchObject({ reservation: { status: 'committed' }, commit: { type: 'commit' }, summary: null });
    expect(err.join('')).toMatch(new RegExp(`^veil: warning: entry ${recorded.reservation.id} was recorded and committed, but the summary could not be computed: accounting broke \\(do not record the release again\\)\n$`));
    vi.restoreAllMocks();
    const entries = await withContext((ctx) => callMethod(ctx, 'ledger.entries', { dataset: 'after' }));
    expect(entries.map((e) => e.type)).toEqual(['budget', 'reserve', 'commit']);
  });
});

describe('an (ε, δ₀) release with δ₀ above the dataset δ', () => {
  it('is refused in one line through the CLI and the API, writing nothing', async () => {
    const before = await withContext((ctx) => callMethod(ctx, 'ledger.entries', { dataset: 'cli' }));
    const event = eventFile('loose.json', { kind: 'approx', epsilon: 0.1, delta: 1e-4 });
    expect(await veil('ledger', 'record', '--dataset', 'cli', '--event', event, '--purpose', 'too loose')).toBe(1);
    expect(err.join('')).toMatch(/^veil: no finite ε bounds \(0\.1, 1\.0e-4\)-DP at the δ=1\.00e-6 of dataset "cli": its own δ₀ is larger.*nothing was recorded\n$/);
    await withContext(async (ctx) => {
      await expect(callMethod(ctx, 'ledger.record', { dataset: 'api', event: approxDp(0.1, 1e-4), purpose: 'too loose' })).rejects.toThrow(/no finite ε bounds/);
      // Through the API too, a purpose of spaces only is refused (as the CLI and the page refuse it), nothing written.
      const apiBefore = await callMethod(ctx, 'ledger.entries', { dataset: 'api' });
      await expect(callMethod(ctx, 'ledger.record', { dataset: 'api', event: approxDp(0.1, 1e-8), purpose: '   ' })).rejects.toThrow(/purpose: say what was released/);
      expect(await callMethod(ctx, 'ledger.entries', { dataset: 'api' })).toEqual(apiBefore);
      expect(await callMethod(ctx, 'ledger.entries', { dataset: 'cli' })).toEqual(before);
      expect((await callMethod(ctx, 'ledger.entries', { dataset: 'api' })).filter((e) => e.type === 'reserve')).toHaveLength(1);
      expect(await callMethod(ctx, 'ledger.remaining', { dataset: 'api', event: approxDp(0.1, 1e-4) })).toEqual({ count: 0, atLimit: false });
    });
  });

  it('releases whose δ₀ only together exceed the dataset δ: the overspend message says why', async () => {
    await withContext(async (ctx) => {
      await callMethod(ctx, 'vault.createDataset', { name: 'sum', labels: ['a'] });
      await callMethod(ctx, 'budget.set', { dataset: 'sum', epsilon: 100, delta: 1e-6 });
      await callMethod(ctx, 'ledger.record', { dataset: 'sum', event: approxDp(1, 6e-7), purpose: 'first' });
      await expect(callMethod(ctx, 'ledger.record', { dataset: 'sum', event: approxDp(1, 6e-7), purpose: 'second' })).rejects.toThrow(
        /together ε=∞ > cap ε=100\.0.*no finite ε bounds them together at this δ.*nothing was recorded/,
      );
    });
  });

  it('a budget δ lowered below a charged δ₀: set with a warning, and the spend reads "Infinity" everywhere', async () => {
    expect(await veil('budget', 'set', '--dataset', 'cli', '--epsilon', '4', '--delta', '1e-9', '--json')).toBe(0);
    expect(takeJson().budget).toMatchObject({ epsilon: 4, delta: 1e-9 });
    expect(err.join('')).toMatch(/warning: no finite ε bounds what is already spent at δ=1e-9/);
    expect(await veil('budget', 'show', '--dataset', 'cli', '--json')).toBe(0);
    const summary = takeJson();
    expect(summary.spent.epsilon.upper).toBe('Infinity');
    expect(summary.remainingEpsilon).toBe(0);
    expect(await veil('ledger', 'show', '--dataset', 'cli')).toBe(0);
    expect(out.join('')).toMatch(/ε spent ∞ of cap 4\.000.*\n.*no finite ε bounds the spend/);
    out.length = 0;
    const report = join(dir, 'report2.html');
    expect(await veil('ledger', 'report', '--dataset', 'cli', '--out', report)).toBe(0);
    expect(readFileSync(report, 'utf8')).toContain('no finite ε bounds the spend at this δ');
    expect(await veil('ledger', 'verify', '--dataset', 'cli')).toBe(0);
  });
});
