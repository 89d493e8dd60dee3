/** Handlers for synth.* and certificate.verify; the service is the context's 'synthesis' singleton. */
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { getLedgerService } from '../ledger/ledgerService';
import { exportDocument } from './exportFormats';
import { RunStore } from './runStore';
import { SynthesisService } from './synthesisService';
import { vaultSource } from './vaultSource';
import { RefusalError } from '../refusalError';

export function getSynthesisService(ctx: ServiceContext): Promise<SynthesisService> {
  return ctx.singleton('synthesis', async () => {
    const runs = new RunStore(await appDatabase(ctx));
    await runs.markInterrupted(ctx.jobs);
    return new SynthesisService(ctx, runs, await getLedgerService(ctx), await vaultSource(ctx));
  });
}

type SynthesisMethodName = 'synth.plan' | 'synth.preview' | 'synth.previewCurve' | 'synth.start' | 'synth.list' | 'synth.get' | 'synth.evaluate' | 'synth.export';

export const synthesisHandlers: HandlerMap<SynthesisMethodName> = {
  'synth.plan': async (request, ctx) => (await (await getSynthesisService(ctx)).price(request)).priced.plan,
  'synth.preview': async ({ limit, ...request }, ctx) => ({ jobId: await (await getSynthesisService(ctx)).preview(request, limit) }),
  'synth.previewCurve': async ({ limit, epsilons, ...settings }, ctx) => ({ jobId: await (await getSynthesisService(ctx)).previewCurve(settings, epsilons, limit) }),
  'synth.start': async (request, ctx) => (await getSynthesisService(ctx)).start(request),
  'synth.list': async ({ dataset }, ctx) => (await (await getSynthesisService(ctx)).runs.list(dataset)).map(({ document: _d, ...run }) => run),
  'synth.get': async ({ id }, ctx) => (await getSynthesisService(ctx)).get(id),
  'synth.evaluate': async ({ id, limit }, ctx) => ({ jobId: await (await getSynthesisService(ctx)).evaluate(id, limit) }),
  'synth.export': async ({ id, format }, ctx) => {
    const run = await (await getSynthesisService(ctx)).get(id);
    if (!run.document) throw new RefusalError(`run ${id} has no released prompt (status: ${run.status})`);
    return exportDocument(run.document, id, format);
  },
};
