/**
 * The planner's answers already computed, by everything each depends on (plannerHandlers.ts):
 * calibrations by the request and the dataset's pools, unit count and δ; headlines also by
 * the budget state (a ledger change is a different key); details also by the model's step
 * costs. A slider moved back to an earlier value, a refresh with nothing changed, the details
 * after their headline, or the page and `plan.save` pricing the same request, is answered at
 * once. Least recently used entries go first.
 */
import { createHash } from 'node:crypto';
import type { PlanRequest } from '../../shared/api/planner';
import { planDelta, type PlanInputs } from './planPricing';

const ENTRIES = 128;

export class PlanCache<T> {
  private readonly entries = new Map<string, T>();

  /** The cached answer for `key`, else `compute()`'s (kept). */
  through(key: string, compute: () => T): T {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    if (this.entries.size > ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

export type PlanPart = 'calibration' | 'headline' | 'details';

/** What `part` of the plan of `request` depends on, hashed. */
export function planKey(part: PlanPart, request: PlanRequest, inputs: PlanInputs): string {
  const shared = { part, request, dataset: inputs.dataset, pools: [...inputs.poolUnits], units: inputs.units };
  const extra =
    part === 'headline' ? { budget: inputs.budget }
    : part === 'details' ? { delta: planDelta(request, inputs), stepCosts: inputs.stepCosts ?? null }
    : { delta: planDelta(request, inputs) };
  return createHash('sha256').update(JSON.stringify({ ...shared, ...extra })).digest('hex');
}
