/**
 * Pricing an augmentation counts the public examples the seeds are chosen among — its own public
 * split, a public source's when it has none, capped at PUBLIC_EXAMPLES_LIMIT — with one COUNT:
 * the price states exactly as many as the job's sample reads, and no public text is read to price.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publicExamples } from '../../../electron/services/answering/publicExamples';
import { PUBLIC_EXAMPLES_LIMIT } from '../../../electron/services/answering/sgaSettings';
import { callMethod } from '../../../electron/services/api';
import { AugmentationRunStore } from '../../../electron/services/augmentation/augmentationRunStore';
import { AugmentationService } from '../../../electron/services/augmentation/augmentationService';
import { ServiceContext } from '../../../electron/services/context';
import { ensureDataDir } from '../../../electron/services/dataDir';
import { appDatabase } from '../../../electron/services/db/appDatabase';
import { getLedgerService } from '../../../electron/services/ledger/ledgerService';
import { vaultSource } from '../../../electron/services/synthesis/vaultSource';
import { getVaultService } from '../../../electron/services/vault/vaultHandlers';

const dir = mkdtempSync(join(tmpdir(), 'veil-augment-price-'));
const ctx = new ServiceContext(ensureDataDir(dir), 'cli');
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

const notes = (prefix: string, count: number, split: 'private' | 'public') => Array.from({ length: count }, (_, i) => ({ text: `${prefix} note ${i}`, output: `summary ${i}`, split }));

async function dataset(name: string, publicRecords: number): Promise<void> {
  await callMethod(ctx, 'vault.createDataset', { name, task: 'generation' });
  await callMethod(ctx, 'vault.addRecords', { dataset: name, records: [...notes(`${name} private`, 5, 'private'), ...notes(`${name} public`, publicRecords, 'public')] });
}

describe('augmentation price', () => {
  beforeAll(async () => {
    await dataset('few', 7);
    await dataset('many', PUBLIC_EXAMPLES_LIMIT + 150);
    await dataset('borrows', 0);
    await callMethod(ctx, 'publicSource.set', { dataset: 'borrows', from: 'few' });
  }, 120_000);

  it('states as many public examples as the job reads, without reading a public text', async () => {
    const source = await vaultSource(ctx);
    const examples = vi.fn(source.examples);
    const db = await appDatabase(ctx);
    const service = new AugmentationService(ctx, new AugmentationRunStore(db), await getLedgerService(ctx), { ...source, examples }, await getVaultService(ctx));
    const expected = { few: 7, many: PUBLIC_EXAMPLES_LIMIT, borrows: 7 };
    for (const [name, count] of Object.entries(expected)) {
      const { plan } = await service.plan({ dataset: name, epsilon: 1, examples: 2, depth: 2, maxTokens: 50 });
      expect(plan.publicExamples).toBe(count);
      expect(examples).not.toHaveBeenCalled();
      expect((await publicExamples(db, source, await source.dataset(name), PUBLIC_EXAMPLES_LIMIT)).length).toBe(count);
    }
    expect((await callMethod(ctx, 'augment.plan', { dataset: 'many' })).publicExamples).toBe(PUBLIC_EXAMPLES_LIMIT);
  }, 120_000);
});
