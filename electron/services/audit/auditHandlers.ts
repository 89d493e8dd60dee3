/** Handlers for audit.*; the service is the context's 'audit' singleton. */
import type { RandomSource } from '../../../core/random/randomSource';
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { getSynthesisService } from '../synthesis/synthesisHandlers';
import { vaultSource } from '../synthesis/vaultSource';
import { auditReportHtml, auditReportJson } from './auditReport';
import { AuditService } from './auditService';
import { AuditStore } from './auditStore';

/** `random` is used only by the call that creates the service (tests opt a seeded source in with it). */
export function getAuditService(ctx: ServiceContext, random?: RandomSource): Promise<AuditService> {
  return ctx.singleton('audit', async () => {
    const db = await appDatabase(ctx);
    const store = new AuditStore(db);
    await store.markInterrupted(ctx.jobs);
    return new AuditService(ctx, store, db, await getSynthesisService(ctx), await vaultSource(ctx), random);
  });
}

type AuditMethodName = 'audit.start' | 'audit.list' | 'audit.get' | 'audit.export';

export const auditHandlers: HandlerMap<AuditMethodName> = {
  'audit.start': async (request, ctx) => (await getAuditService(ctx)).start(request),
  'audit.list': async ({ dataset }, ctx) => (await getAuditService(ctx)).store.list(dataset),
  'audit.get': async ({ id }, ctx) => (await getAuditService(ctx)).store.get(id),
  'audit.export': async ({ id, format }, ctx) => {
    const run = await (await getAuditService(ctx)).store.get(id);
    return format === 'json'
      ? { fileName: `veil-audit-${id}.json`, mediaType: 'application/json', content: auditReportJson(run) }
      : { fileName: `veil-audit-${id}.html`, mediaType: 'text/html', content: auditReportHtml(run) };
  },
};
