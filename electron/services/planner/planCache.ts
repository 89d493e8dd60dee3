/**
 * Plans already priced, by everything a plan depends on: the request and the dataset's pools,
 * unit count and budget state (so a ledger or vault change is a different key). A slider
 * moved back to an earlier value, a refresh with nothing changed, or the page and `plan.save`
 * pricing the same request, is answered at once. Least recently used entries go first.
 */
import { createHash } from 'node:crypto';
import type { PlanResult } from '../../shared/api/planner';
import type { PlanInputs } from './computePlan';

const ENTRIES = 128;

export class PlanCache {
  private readonly plans = new Map<string, PlanResult>();

  static key(request: unknown, inputs: PlanInputs): string {
    const json = JSON.stringify({ request, dataset: inputs.dataset, pools: [...inputs.poolUnits], units: inputs.units, budget: inputs.budget, stepCosts: inputs.stepCosts ?? null });
    return createHash('sha256').update(json).digest('hex');
  }

  get(key: string): PlanResult | undefined {
    const plan = this.plans.get(key);
    if (plan) {
      this.plans.delete(key); // most recently used last
      this.plans.set(key, plan);
    }
    return plan;
  }

  set(key: string, plan: PlanResult): void {
    this.plans.delete(key);
    this.plans.set(key, plan);
    if (this.plans.size > ENTRIES) this.plans.delete(this.plans.keys().next().value!);
  }
}
