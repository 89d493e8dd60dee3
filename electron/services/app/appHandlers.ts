/** Handlers for app.* and jobs.* methods: identity, the health self-check, job control. */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HealthCheck } from '../../shared/api/app';
import { APP_NAME, APP_VERSION } from '../../shared/appInfo';
import type { ServiceContext } from '../context';
import { appDatabase, DATABASE_FILE } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { getModelService } from '../model/modelHandlers';

/** The active model backend's name ('reference', 'llama.cpp' or 'openai-compatible'). */
export async function activeBackendName(ctx: ServiceContext): Promise<string> {
  return (await getModelService(ctx)).activeBackendName();
}

/** Each health probe returns a one-line detail, or throws why it failed. */
const HEALTH_PROBES: Record<string, (ctx: ServiceContext) => Promise<string>> = {
  csprng: async () => {
    if (typeof globalThis.crypto?.getRandomValues !== 'function') throw new Error('globalThis.crypto.getRandomValues is missing');
    return 'globalThis.crypto.getRandomValues is available';
  },
  'data directory': async (ctx) => {
    const probe = join(ctx.dataDir, `.health-${randomUUID()}`);
    try {
      await writeFile(probe, 'ok', { mode: 0o600 });
    } finally {
      await rm(probe, { force: true });
    }
    return `${ctx.dataDir} is writable`;
  },
  database: async (ctx) => {
    const db = await appDatabase(ctx);
    const row = await db.get<{ n: number }>('SELECT count(*) AS n FROM schema_migrations');
    return `${DATABASE_FILE} open, ${row?.n ?? 0} migrations applied`;
  },
};

async function runProbe(name: string, ctx: ServiceContext): Promise<HealthCheck> {
  try {
    return { name, ok: true, detail: await HEALTH_PROBES[name](ctx) };
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
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
  'app.health': async (_input, ctx) => {
    const checks = await Promise.all(Object.keys(HEALTH_PROBES).map((name) => runProbe(name, ctx)));
    return { ok: checks.every((c) => c.ok), checks };
  },
};

export const jobHandlers: HandlerMap<'jobs.list' | 'jobs.get' | 'jobs.cancel'> = {
  'jobs.list': async (_input, ctx) => ctx.jobs.list(),
  'jobs.get': async ({ id }, ctx) => ctx.jobs.get(id),
  'jobs.cancel': async ({ id }, ctx) => ({ cancelled: ctx.jobs.cancel(id) }),
};
