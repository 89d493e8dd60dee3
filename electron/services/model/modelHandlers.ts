/**
 * Handlers for model.* methods; the model service is the context's 'model' singleton.
 * model.pickGguf answers "no dialog" here: services never import electron, so the desktop
 * app's main process overrides it with a native dialog (electron/main/ggufDialog.ts).
 */
import type { ServiceContext } from '../context';
import type { HandlerMap } from '../handler';
import { inspectGgufFile, validateGgufPath } from './ggufFile';
import { ModelService } from './modelService';
import { RefusalError } from '../refusalError';

export function getModelService(ctx: ServiceContext): Promise<ModelService> {
  return ctx.singleton('model', () => new ModelService(), (service) => service.close());
}

type ModelMethod = 'model.status' | 'model.loadGguf' | 'model.useReference' | 'model.useRemote' | 'model.unload' | 'model.inspect' | 'model.try' | 'model.pickGguf';

export const modelHandlers: HandlerMap<ModelMethod> = {
  'model.status': async (_input, ctx) => (await getModelService(ctx)).status(),
  'model.loadGguf': async ({ path, ...options }, ctx) => {
    const real = await validateGgufPath(path);
    const service = await getModelService(ctx);
    if (service.loading) throw new RefusalError('a model is already being loaded; wait for that job or cancel it');
    return { jobId: await ctx.jobs.start('model.load', (job) => service.loadGguf(real, job, options)) };
  },
  'model.useReference': async (_input, ctx) => (await getModelService(ctx)).useReference(),
  'model.useRemote': async (input, ctx) => (await getModelService(ctx)).useRemote(input),
  'model.unload': async (_input, ctx) => (await getModelService(ctx)).unload(),
  'model.inspect': async ({ path }) => inspectGgufFile(path),
  'model.try': async ({ prompt, maxTokens, topK }, ctx) => (await getModelService(ctx)).try(prompt, maxTokens, topK),
  'model.pickGguf': async () => ({ available: false, path: null }),
};
