/** Handlers for augment.*; the service is the context's 'augmentation' singleton. */
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { getLedgerService } from '../ledger/ledgerService';
import { vaultSource } from '../synthesis/vaultSource';
import { getVaultService } from '../vault/vaultHandlers';
import { AugmentationRunStore } from './augmentationRunStore';
import { AugmentationService } from './augmentationService';

export function getAugmentationService(ctx: ServiceContext): Promise<AugmentationService> {
  return ctx.singleton('augmentation', async () => {
    const runs = new AugmentationRunStore(await appDatabase(ctx));
    await runs.markInterrupted(ctx.jobs);
    return new AugmentationService(ctx, runs, await getLedgerService(ctx), await vaultSource(ctx), await getVaultService(ctx));
  });
}

type AugmentationMethodName = 'augment.plan' | 'augment.start' | 'augment.list' | 'augment.get' | 'augment.export';

export const augmentationHandlers: HandlerMap<AugmentationMethodName> = {
  'augment.plan': async (request, ctx) => (await (await getAugmentationService(ctx)).plan(request)).plan,
  'augment.start': async (request, ctx) => (await getAugmentationService(ctx)).start(request),
  'augment.list': async ({ dataset }, ctx) => (await getAugmentationService(ctx)).runs.list(dataset),
  'augment.get': async ({ id }, ctx) => (await getAugmentationService(ctx)).runs.get(id),
  'augment.export': async ({ id }, ctx) => (await getAugmentationService(ctx)).export(id),
};
