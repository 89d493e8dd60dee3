/** Handlers for publicSource.*: where a dataset's public examples come from (publicExamples.ts). */
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { publicSource, setPublicSource } from './publicExamples';

export const publicSourceHandlers: HandlerMap<'publicSource.get' | 'publicSource.set'> = {
  'publicSource.get': async ({ dataset }, ctx) => publicSource(await appDatabase(ctx), dataset),
  'publicSource.set': async ({ dataset, from }, ctx) => setPublicSource(await appDatabase(ctx), dataset, from),
};
