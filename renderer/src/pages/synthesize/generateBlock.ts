/** Why Generate is refused up front: the shown price already exceeds the budget (the ledger would refuse it too). */
import type { SynthesisPlanDto } from '../../../../electron/shared/api/synthesis';

export function generateBlock(plan: Pick<SynthesisPlanDto, 'budget'> | null): string | null {
  const budget = plan?.budget;
  if (!budget || budget.afterJob <= budget.cap) return null;
  const fmt = (x: number) => x.toPrecision(4);
  return `Over budget: after this job ε would be ${fmt(budget.afterJob)}, above the cap ${fmt(budget.cap)} (${fmt(budget.spent)} already spent). Lower ε or the shots, or raise the cap on the Budget page.`;
}
