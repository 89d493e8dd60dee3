/** Handlers for vault.* methods; the service is the context's 'vault' singleton. */
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { VaultService } from './vaultService';

export function getVaultService(ctx: ServiceContext): Promise<VaultService> {
  return ctx.singleton('vault', async () => new VaultService(await appDatabase(ctx), ctx));
}

type VaultMethod =
  | 'vault.listDatasets' | 'vault.createDataset' | 'vault.updateDataset' | 'vault.deleteDataset' | 'vault.stats' | 'vault.records'
  | 'vault.record' | 'vault.addRecords' | 'vault.updateRecord' | 'vault.bulk' | 'vault.redact' | 'vault.scanPii' | 'vault.compact' | 'vault.createSample';

const vault = getVaultService;

export const vaultHandlers: HandlerMap<VaultMethod> = {
  'vault.listDatasets': async (_input, ctx) => (await vault(ctx)).datasets(),
  'vault.createDataset': async (fields, ctx) => (await vault(ctx)).create(fields),
  'vault.updateDataset': async ({ dataset, ...change }, ctx) => (await vault(ctx)).update(dataset, change),
  'vault.deleteDataset': async ({ dataset, compact }, ctx) => (await vault(ctx)).remove(dataset, { compact }),
  'vault.stats': async ({ dataset }, ctx) => (await vault(ctx)).stats(dataset),
  'vault.records': async ({ dataset, ...page }, ctx) => (await vault(ctx)).records(dataset, page),
  'vault.record': async ({ id }, ctx) => (await vault(ctx)).record(id),
  'vault.addRecords': async ({ dataset, records }, ctx) => (await vault(ctx)).addRecords(dataset, records),
  'vault.updateRecord': async ({ id, ...change }, ctx) => (await vault(ctx)).updateRecord(id, change),
  'vault.bulk': async ({ dataset, target, action }, ctx) => ({ affected: await (await vault(ctx)).bulk(dataset, target, action) }),
  'vault.redact': async ({ id, kinds, spans }, ctx) => (await vault(ctx)).redact(id, kinds, spans),
  'vault.scanPii': async ({ dataset }, ctx) => {
    const service = await vault(ctx);
    const id = await service.datasetId(dataset);
    return { jobId: await ctx.jobs.start('vault.scanPii', (job) => service.rescanPii(id, job)) };
  },
  'vault.compact': async (_input, ctx) => (await vault(ctx)).compact(),
  'vault.createSample': async ({ kind, name }, ctx) => (await vault(ctx)).createSample(kind, name),
};
