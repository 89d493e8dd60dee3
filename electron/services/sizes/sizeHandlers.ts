/** Handlers for sizes.*: the dataset setting "size is public". */
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { resolveDataset } from '../ledger/datasets';
import { isSizePublic, setSizePublic } from './poolSizes';

export const sizeHandlers: HandlerMap<'sizes.get' | 'sizes.set'> = {
  'sizes.get': async ({ dataset }, ctx) => {
    const db = await appDatabase(ctx);
    const key = await resolveDataset(db, dataset);
    return { dataset: key.name, sizePublic: await isSizePublic(db, key.id) };
  },
  'sizes.set': async ({ dataset, sizePublic }, ctx) => setSizePublic(await appDatabase(ctx), dataset, sizePublic),
};
