/** A temporary data directory holding the sample e-mail dataset "mail" with a budget (ε 8, δ 1e-6), for CLI tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withServices } from '../../../electron/cli/withServices';
import { callMethod } from '../../../electron/services/api';

export async function sampleDataDir(prefix: string): Promise<{ dir: string; data: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const data = join(dir, 'data');
  await withServices(data, async (ctx) => {
    await callMethod(ctx, 'vault.createSample', { name: 'mail' });
    await callMethod(ctx, 'budget.set', { dataset: 'mail', epsilon: 8, delta: 1e-6 });
  });
  return { dir, data };
}
