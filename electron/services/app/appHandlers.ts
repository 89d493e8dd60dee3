/** Handlers for app.* and jobs.* methods. */
import { APP_NAME, APP_VERSION } from '../../shared/appInfo';
import type { ServiceContext } from '../context';
import type { HandlerMap } from '../handler';
import { getModelService } from '../model/modelHandlers';

/** The active model backend's name ('reference', 'llama.cpp' or 'openai-compatible'). */
export async function activeBackendName(ctx: ServiceContext): Promise<string> {
  return (await getModelService(ctx)).activeBackendName();
}

export const appHandlers: HandlerMap<'app.info' | 'app.health'> = {
  'app.info': async (_input, ctx) => ({
    name: APP_NAME,
    version: APP_VERSION,
    dataDir: ctx.dataDir,
    backend: await activeBackendName(ctx),
    platform: `${process.platform}-${process.arch}`,
    mode: ctx.mode,
  }),
  'app.health': async () => {
    const checks = [
      { name: 'csprng', ok: typeof globalThis.crypto?.getRandomValues === 'function', detail: 'globalThis.crypto' },
    ];
    return { ok: checks.every((c) => c.ok), checks };
  },
};

export const jobHandlers: HandlerMap<'jobs.list' | 'jobs.get' | 'jobs.cancel'> = {
  'jobs.list': async (_input, ctx) => ctx.jobs.list(),
  'jobs.get': async ({ id }, ctx) => ctx.jobs.get(id),
  'jobs.cancel': async ({ id }, ctx) => ({ cancelled: ctx.jobs.cancel(id) }),
};
