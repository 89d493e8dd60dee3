/** app.health: CSPRNG, a writable data directory and an app database that opens, each reported by name. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { DATABASE_FILE } from '../../../electron/services/db/appDatabase';
import { ensureDataDir } from '../../../electron/services/dataDir';

const contexts: ServiceContext[] = [];
const dirs: string[] = [];
function freshContext(): ServiceContext {
  const dir = mkdtempSync(join(tmpdir(), 'veil-health-'));
  dirs.push(dir);
  const ctx = new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
  contexts.push(ctx);
  return ctx;
}
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const byName = (checks: { name: string; ok: boolean; detail: string }[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('app.health', () => {
  it('passes on a fresh data directory and leaves no probe file behind', async () => {
    const ctx = freshContext();
    const health = await callMethod(ctx, 'app.health', {});
    expect(health.ok).toBe(true);
    const checks = byName(health.checks);
    expect(Object.keys(checks)).toEqual(['csprng', 'data directory', 'database']);
    expect(checks['data directory'].detail).toContain(ctx.dataDir);
    expect(checks.database.detail).toMatch(/migrations applied/);
    expect(readdirSync(ctx.dataDir).filter((f) => f.startsWith('.health-'))).toEqual([]);
  });

  it('reports an unwritable data directory and a database that cannot open', async () => {
    const ctx = freshContext();
    rmSync(ctx.dataDir, { recursive: true });
    const health = await callMethod(ctx, 'app.health', {});
    expect(health.ok).toBe(false);
    const checks = byName(health.checks);
    expect(checks.csprng.ok).toBe(true);
    expect(checks['data directory']).toMatchObject({ ok: false, detail: expect.stringMatching(/ENOENT/) });
    expect(checks.database.ok).toBe(false);
  });

  it('reports a corrupt database while the directory itself is fine', async () => {
    const ctx = freshContext();
    writeFileSync(join(ctx.dataDir, DATABASE_FILE), 'this is not an SQLite file, just text padding it out to a page'.repeat(100));
    const checks = byName((await callMethod(ctx, 'app.health', {})).checks);
    expect(checks['data directory'].ok).toBe(true);
    expect(checks.database).toMatchObject({ ok: false, detail: expect.stringMatching(/not a database/i) });
  });
});
