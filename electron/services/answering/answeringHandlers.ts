/** Handlers for ask.*; the service is the context's 'answering' singleton. */
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { getLedgerService } from '../ledger/ledgerService';
import { RefusalError } from '../refusalError';
import { getSynthesisService } from '../synthesis/synthesisHandlers';
import { vaultSource } from '../synthesis/vaultSource';
import { AnswerRunStore } from './answerRunStore';
import { AnsweringService } from './answeringService';

export function getAnsweringService(ctx: ServiceContext): Promise<AnsweringService> {
  return ctx.singleton('answering', async () => {
    const runs = new AnswerRunStore(await appDatabase(ctx));
    await runs.markInterrupted(ctx.jobs);
    const synthesisRuns = async (dataset: string) => (await getSynthesisService(ctx)).runs.list(dataset);
    return new AnsweringService(ctx, runs, await getLedgerService(ctx), await vaultSource(ctx), synthesisRuns);
  });
}

type AnsweringMethodName = 'ask.plan' | 'ask.start' | 'ask.list' | 'ask.get' | 'ask.export';

export const answeringHandlers: HandlerMap<AnsweringMethodName> = {
  'ask.plan': async (request, ctx) => (await getAnsweringService(ctx)).price(request),
  'ask.start': async (request, ctx) => (await getAnsweringService(ctx)).start(request),
  'ask.list': async ({ dataset }, ctx) => (await (await getAnsweringService(ctx)).runs.list(dataset)).map(({ document: _d, ...run }) => run),
  'ask.get': async ({ id }, ctx) => (await getAnsweringService(ctx)).get(id),
  'ask.export': async ({ id }, ctx) => {
    const run = await (await getAnsweringService(ctx)).get(id);
    if (!run.document) throw new RefusalError(`answering run ${id} has no released answers (status: ${run.status})`);
    return { fileName: `veil-answers-${id}.json`, mediaType: 'application/json', content: `${JSON.stringify(run.document, null, 2)}\n` };
  },
};
