/**
 * Handlers for plan.*: the planner reads the dataset's pools and budget through the
 * synthesis and ledger services, then prices the workload — the headline (computePlan.ts)
 * and the details (planDetails.ts) from one calibration (planPricing.ts), each kept in the
 * planner's caches (planCache.ts); saved plans live in the app database (planStore.ts).
 */
import type { ServiceContext } from '../context';
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { privacyUnitCount } from '../ledger/datasets';
import { getSynthesisService } from '../synthesis/synthesisHandlers';
import { getStepCosts } from '../synthesis/stepCosts';
import type { PlanDetails, PlanHeadline, PlanRequest, PlanResult } from '../../shared/api/planner';
import { computePlan, planHeadline } from './computePlan';
import { planDetails } from './planDetails';
import { PlanCache, planKey } from './planCache';
import { assertPlannable, pricePlan, type PlanInputs, type PricedPlan } from './planPricing';
import { PlanStore } from './planStore';

interface PlanCaches {
  calibrations: PlanCache<PricedPlan>;
  headlines: PlanCache<PlanHeadline>;
  details: PlanCache<PlanDetails>;
}

const getCaches = (ctx: ServiceContext): Promise<PlanCaches> =>
  ctx.singleton('plan-cache', async () => ({ calibrations: new PlanCache(), headlines: new PlanCache(), details: new PlanCache() }));

/** What a plan of `request` depends on besides the request: the dataset's pools, units, budget and the model's step costs. */
export async function planInputs(ctx: ServiceContext, request: PlanRequest): Promise<PlanInputs> {
  const synthesis = await getSynthesisService(ctx);
  const { dataset, poolUnits } = await synthesis.pools(request.dataset);
  const units = (await privacyUnitCount(await appDatabase(ctx), dataset.id)) ?? 0;
  const stepCosts = (await getStepCosts(ctx)).current();
  const inputs: PlanInputs = { dataset, poolUnits, units, budget: await synthesis.budgetState(dataset), stepCosts };
  assertPlannable(inputs);
  return inputs;
}

/** The request's calibration: computed once, shared by its headline and its details. */
const priced = (caches: PlanCaches, request: PlanRequest, inputs: PlanInputs): PricedPlan =>
  caches.calibrations.through(planKey('calibration', request, inputs), () => pricePlan(request, inputs));

async function headline(ctx: ServiceContext, request: PlanRequest): Promise<PlanHeadline> {
  const [inputs, caches] = await Promise.all([planInputs(ctx, request), getCaches(ctx)]);
  const started = performance.now();
  return caches.headlines.through(planKey('headline', request, inputs), () => planHeadline(request, inputs, priced(caches, request, inputs), started));
}

async function details(ctx: ServiceContext, request: PlanRequest): Promise<PlanDetails> {
  const [inputs, caches] = await Promise.all([planInputs(ctx, request), getCaches(ctx)]);
  return caches.details.through(planKey('details', request, inputs), () => planDetails(request, inputs, priced(caches, request, inputs)));
}

/** The whole plan from one read of the inputs and the cached calibration (the CLI's `veil plan`). */
async function whole(ctx: ServiceContext, request: PlanRequest): Promise<PlanResult> {
  const [inputs, caches] = await Promise.all([planInputs(ctx, request), getCaches(ctx)]);
  return computePlan(request, inputs, (r) => priced(caches, r, inputs));
}

const getPlanStore = (ctx: ServiceContext): Promise<PlanStore> => ctx.singleton('plans', async () => new PlanStore(await appDatabase(ctx)));

type PlannerMethodName = 'plan.compute' | 'plan.headline' | 'plan.details' | 'plan.save' | 'plan.list' | 'plan.delete';

export const plannerHandlers: HandlerMap<PlannerMethodName> = {
  'plan.headline': async (request, ctx) => headline(ctx, request),
  'plan.details': async (request, ctx) => details(ctx, request),
  'plan.compute': async (request, ctx) => whole(ctx, request),
  'plan.save': async ({ name, request }, ctx) => {
    await headline(ctx, request); // refuse to save a plan that cannot be priced
    return (await getPlanStore(ctx)).save(name, request);
  },
  'plan.list': async ({ dataset }, ctx) => (await getPlanStore(ctx)).list(dataset),
  'plan.delete': async ({ id }, ctx) => ({ deleted: await (await getPlanStore(ctx)).delete(id) }),
};
