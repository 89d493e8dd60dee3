/** ServiceContext singletons: one make() for concurrent first calls, retry after failure, close once. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';

const dirs: string[] = [];
const freshContext = () => {
  const dir = mkdtempSync(join(tmpdir(), 'veil-ctx-'));
  dirs.push(dir);
  return new ServiceContext(ensureDataDir(join(dir, 'data')), 'cli');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ServiceContext.singleton', () => {
  it('runs make() once for concurrent first calls and closes the value once', async () => {
    const ctx = freshContext();
    let made = 0;
    let closed = 0;
    // make() cannot finish before all four calls are in: it waits for this gate.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const make = async () => {
      made++;
      await gate;
      return { n: made };
    };
    const calls = Promise.all([1, 2, 3, 4].map(() => ctx.singleton('k', make, () => void closed++)));
    open();
    const values = await calls;
    expect(made).toBe(1);
    expect(new Set(values).size).toBe(1);
    await ctx.close();
    expect(closed).toBe(1);
  });

  it('forgets a failed make() so the next call retries', async () => {
    const ctx = freshContext();
    let calls = 0;
    const make = async () => {
      if (++calls === 1) throw new Error('first try fails');
      return 'ok';
    };
    await expect(ctx.singleton('k', make)).rejects.toThrow('first try fails');
    await expect(ctx.singleton('k', make)).resolves.toBe('ok');
    await ctx.close();
  });

  it('serves concurrent first API calls on a fresh data directory (one migration run)', async () => {
    const ctx = freshContext();
    const results = await Promise.allSettled([
      callMethod(ctx, 'vault.listDatasets', {}),
      callMethod(ctx, 'synth.list', {}),
      callMethod(ctx, 'vault.listDatasets', {}),
      callMethod(ctx, 'synth.list', {}),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    await ctx.close();
  });
});
