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
import { rdpAccountant, tryRdp } from '../../../core/accounting';
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
 * to 1 %, from the one plan whose ε is already known — or from RDP's count, where that fits.
 */
function remainingPlans(budget: BudgetState, event: PrivacyEvent, afterOne: number): { count: number; atLimit: boolean } {
  if (!(afterOne <= budget.cap)) return { count: 0, atLimit: false };
  if (rdpAdmits(budget.spent, event, REMAINING_LIMIT, budget.cap, budget.delta)) return { count: REMAINING_LIMIT, atLimit: true };
  const counts = new CountedEpsilon({ fixed: composeCharges(chargeEach(budget.spent)), repeated: event, deltas: [budget.delta], limit: REMAINING_LIMIT });
  const value = (n: number) => counts.at(n, budget.delta);
  const from = searchStart(budget, event, { n: 1, value: afterOne }, value);
  const { count, atLimit } = largestWithinCap({ value, cap: budget.cap, from, limit: REMAINING_LIMIT });
  return { count, atLimit };
}

/**
 * Where the count search starts: at RDP's count where the 1 % bound there is within the cap
 * too, else at the one plan. RDP composes by adding curves, so its count costs a few cheap
 * evaluations; its bound is the looser, so PLD's count lies above it, usually within 2×,
 * which the first composition (refined for twice the count asked) then serves. From the one
 * plan, the search's √n guess fell short by up to 2× and needed a second composition (DP
 * few-shot default: "N more" 40 → 24 ms; a composition refined for 4× the count instead cost
 * the vote at 10,000 queries per plan twice its time). Only the start moves: every count is
 * the 1 % bound's.
 */
function searchStart(budget: BudgetState, event: PrivacyEvent, one: { n: number; value: number }, value: (n: number) => number): { n: number; value: number } {
  const charges = chargeEach(budget.spent);
  const rdp = (n: number) => tryRdp(() => rdpAccountant.epsilon(composeCharges([...charges, { event, count: n }])!, budget.delta))?.upper ?? Infinity;
  const rdpOne = rdp(1);
  if (!(rdpOne <= budget.cap)) return one;
  const { count } = largestWithinCap({ value: rdp, cap: budget.cap, from: { n: 1, value: rdpOne }, limit: REMAINING_LIMIT });
  if (count <= one.n) return one;
  const atCount = value(count);
  return atCount <= budget.cap ? { n: count, value: atCount } : one;
}
