/**
 * Pricing an augmentation: ρ of the DPM release calibrated to the analyst's (ε, δ) by the
 * planner's calibration (calibrateTwoStage, the default accountant's upper bound), the event
 * being the DPM event on the WHOLE private split (augmentationEvent: no subsampling, so the
 * pool sizes play no part in it; δ defaults as answering's do).
 */
import { accountEpsilon } from '../../../core/accounting';
import { defaultDelta } from '../../../core/accounting/defaultDelta';
import { augmentationEvent } from '../../../core/icl/augmentation/augmentationSeeds';
import type { AugmentPlan, AugmentRequest } from '../../shared/api/augmentation';
import { budgetAfter, type BudgetState } from '../ledger/releaseLedger';
import { calibrateTwoStage } from '../planner/fastAccounting';
import { overCapWarning } from '../planner/planWarnings';
import { RefusalError } from '../refusalError';

const CALIBRATION_TOLERANCE = 1e-3;

/** `publicExamples`: how many public examples the seeds are chosen among (public: no size is released). */
export function priceAugmentation(request: AugmentRequest, units: number, budget: BudgetState | null, publicExamples: number): AugmentPlan {
  const delta = request.delta ?? budget?.delta ?? defaultDelta(units);
  let rho: number;
  try {
    // ε rises with ρ (less noise): decreasing = false, as the planner prices 'sga'.
    rho = calibrateTwoStage({ family: (p) => augmentationEvent(p, request.depth), target: { epsilon: request.epsilon, delta }, decreasing: false, tolerance: CALIBRATION_TOLERANCE });
  } catch (error) {
    throw new RefusalError(`no DPM noise level gives ε ≤ ${request.epsilon} at δ = ${delta} (${(error as Error).message})`);
  }
  const event = augmentationEvent(rho, request.depth);
  const account = accountEpsilon(event, delta);
  const after = budgetAfter(budget, event);
  return {
    dataset: request.dataset, rho, depth: request.depth, event, epsilon: account.bounds, delta, accountant: account.accountant,
    examples: request.examples, publicExamples,
    budget: after,
    warnings: after === null ? ['no budget set for this dataset: the job is refused until one is (Budget page or veil budget set)'] : after.afterJob > after.cap ? [overCapWarning(after.afterJob, after.cap)] : [],
  };
}
