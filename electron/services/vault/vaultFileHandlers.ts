/** Handlers for the vault's file methods: import preview, import jobs, export. */
import type { HandlerMap } from '../handler';
import { exportDataset } from './exportDataset';
import { previewImport } from './import/preview';
import { prepareImport, runImport } from './import/runImport';
import { getVaultService } from './vaultHandlers';

export const vaultFileHandlers: HandlerMap<'vault.previewImport' | 'vault.import' | 'vault.export'> = {
  'vault.previewImport': async (input) => previewImport(input),
  'vault.import': async (request, ctx) => {
    const vault = await getVaultService(ctx);
    const prepared = await prepareImport(vault.db, request);
    return { jobId: await ctx.jobs.start('vault.import', (job) => runImport(prepared, job, vault)) };
  },
  'vault.export': async ({ dataset, ...options }, ctx) => {
    const vault = await getVaultService(ctx);
    return exportDataset(vault.db, await vault.dataset(dataset), options);
  },
};
