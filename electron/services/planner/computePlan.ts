/**
 * The budget planner's headline (`plan.headline`, what the analyst reads first, asked on
 * every slider move): the calibrated noise (planPricing.ts), ε with its bounds and the RDP
 * cross-check, the sampling rates, what the dataset's budget has left after the plan and how
 * many more such plans fit, and the warnings. The details — curves, break-even, sampling
 * modes — are planDetails.ts, from the same calibration (plannerHandlers.ts); `computePlan`
 * is both (`plan.compute`).
 */
import type { PrivacyEvent } from '../../../core/accounting/events';
import { largestWithinCap } from '../../../core/math/countSearch';
import { joinPlan, type PlanHeadline, type PlanRequest, type PlanResult } from '../../shared/api/planner';
import { chargeEach, composeCharges } from '../ledger/ledgerAccounting';
import { budgetAfter } from '../ledger/releaseLedger';
import { rdpAdmits } from '../ledger/remaining';
import type { BudgetState } from '../synthesis/synthesisPricing';
import { CountedEpsilon } from './countedEpsilon';
import { withCrossCheck } from './fastAccounting';
import { planDetails } from './planDetails';
import { pricePlan, type PlanInputs, type PricedPlan } from './planPricing';
import { overCapWarning, planWarnings } from './planWarnings';

/** The headline of a priced plan; `seconds` counts from `started` (before the calibration, where it ran). */
export function planHeadline(request: PlanRequest, inputs: PlanInputs, priced: PricedPlan, started = performance.now()): PlanHeadline {
  const { units, budget } = inputs;
  const { delta } = priced;
  // The calibration's own default-accountant answer, with RDP beside it.
  const account = withCrossCheck(priced.event, delta, priced.account);
  const after = budgetAfter(budget, priced.event);
  const [spent, afterPlan] = [after?.spent ?? 0, after?.afterJob ?? 0];
  const remaining = budget ? remainingPlans(budget, priced.event, afterPlan) : null;
  return {
    request,
    delta,
    units,
    noise: priced.noise,
    samplingRates: priced.samplingRates,
    event: priced.event,
    epsilon: account.bounds,
    accountant: account.accountant,
    rdpEpsilon: account.rdp?.upper ?? null,
    budget: budget && remaining ? { cap: budget.cap, delta: budget.delta, spent, afterPlan, remainingRuns: remaining.count, remainingAtLimit: remaining.atLimit } : null,
    warnings: [
      ...planWarnings({ delta, units, epsilon: request.epsilon, rates: priced.samplingRates }),
      ...(budget && afterPlan > budget.cap ? [overCapWarning(afterPlan, budget.cap)] : []),
    ],
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The whole plan, headline and details, from one calibration (`plan.compute`, with `price`
 * reading the planner's calibration cache; `plan.headline` and `plan.details` are its two
 * halves, each cached on its own).
 */
export function computePlan(request: PlanRequest, inputs: PlanInputs, price: (request: PlanRequest) => PricedPlan = (r) => pricePlan(r, inputs)): PlanResult {
  const started = performance.now();
  const priced = price(request);
  return joinPlan(planHeadline(request, inputs, priced, started), planDetails(request, inputs, priced));
}

/**
 * Plans counted when saying what is left; beyond, the page says "at least 10,000". The count
 * composes the plan up to this many times on a fine PLD grid: 0.6 s at 10,000 and 7.6 s at
 * 1,000,000 for a 64-step synthesis event when RDP cannot settle it (rdpAdmits).
 */
const REMAINING_LIMIT = 10_000;
/**
 * How many more releases of `event` fit under the cap after what is spent (the ledger's
 * `remainingCount`, core/math/countSearch.ts), counted with certified upper bounds refined
 * to 1 %, from the one plan whose ε is already known. (Tried and measured worse: starting the
 * search at RDP's count — RDP's curves of subsampled ε-DP steps made the keyword and vote
 * recomputes 1.3–1.5× slower — and compositions refined for 4× the count, twice the vote's
 * time at 10,000 queries per plan.)
 */
function remainingPlans(budget: BudgetState, event: PrivacyEvent, afterOne: number): { count: number; atLimit: boolean } {
  if (!(afterOne <= budget.cap)) return { count: 0, atLimit: false };
  if (rdpAdmits(budget.spent, event, REMAINING_LIMIT, budget.cap, budget.delta)) return { count: REMAINING_LIMIT, atLimit: true };
  const counts = new CountedEpsilon({ fixed: composeCharges(chargeEach(budget.spent)), repeated: event, deltas: [budget.delta], limit: REMAINING_LIMIT });
  const { count, atLimit } = largestWithinCap({ value: (n) => counts.at(n, budget.delta), cap: budget.cap, from: { n: 1, value: afterOne }, limit: REMAINING_LIMIT, reach: (n) => counts.reach(n) });
  return { count, atLimit };
}
