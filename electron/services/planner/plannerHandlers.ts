/**
 * Handlers for plan.*: the planner reads the dataset's pools and budget through the
 * synthesis and ledger services, then prices the workload (computePlan.ts); saved plans
 * live in the app database (planStore.ts).
 */
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { privacyUnitCount } from '../ledger/datasets';
import { getSynthesisService } from '../synthesis/synthesisHandlers';
import { getStepCosts } from '../synthesis/stepCosts';
import type { PlanRequest, PlanResult } from '../../shared/api/planner';
import { computePlan, type PlanInputs } from './computePlan';
import { PlanCache } from './planCache';
import { PlanStore } from './planStore';

async function planWorkload(ctx: ServiceContext, request: PlanRequest): Promise<PlanResult> {
  const synthesis = await getSynthesisService(ctx);
  const { dataset, poolUnits } = await synthesis.pools(request.dataset);
  const units = (await privacyUnitCount(await appDatabase(ctx), dataset.id)) ?? 0;
  const stepCosts = (await getStepCosts(ctx)).current();
  const inputs: PlanInputs = { dataset, poolUnits, units, budget: await synthesis.budgetState(dataset), stepCosts };
  const cache = await ctx.singleton('plan-cache', async () => new PlanCache());
  const key = PlanCache.key(request, inputs);
  const cached = cache.get(key);
  if (cached) return cached;
  const plan = computePlan(request, inputs);
  cache.set(key, plan);
  return plan;
}

const getPlanStore = (ctx: ServiceContext): Promise<PlanStore> => ctx.singleton('plans', async () => new PlanStore(await appDatabase(ctx)));

type PlannerMethodName = 'plan.compute' | 'plan.save' | 'plan.list' | 'plan.delete';

export const plannerHandlers: HandlerMap<PlannerMethodName> = {
  'plan.compute': async (request, ctx) => planWorkload(ctx, request),
  'plan.save': async ({ name, request }, ctx) => {
    await planWorkload(ctx, request); // refuse to save a plan that cannot be priced
    return (await getPlanStore(ctx)).save(name, request);
  },
  'plan.list': async ({ dataset }, ctx) => (await getPlanStore(ctx)).list(dataset),
  'plan.delete': async ({ id }, ctx) => ({ deleted: await (await getPlanStore(ctx)).delete(id) }),
};
