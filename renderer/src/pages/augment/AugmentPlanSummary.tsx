/** What an augmentation would charge and release, before anything is charged: ε and δ, the release, M, the budget after, warnings. */
import type { AugmentPlan } from '../../../../electron/shared/api/augmentation';
import { budgetRow, PlannedCost } from '../../components/PlannedCost';

const fmt = (x: number) => x.toPrecision(4);

export function AugmentPlanSummary({ plan }: { plan: AugmentPlan }) {
  const rows = [
    ['ε charged', `${fmt(plan.epsilon.upper)} (estimate ${fmt(plan.epsilon.estimate)}, lower ${fmt(plan.epsilon.lower)}; ${plan.accountant}) at δ = ${plan.delta.toExponential(2)}`],
    [
      'Released',
      `noisy DPM centres and counts of the private split's embeddings (one point per privacy unit, the whole split, no subsampling; ρ = ${fmt(plan.rho)}, depth ${plan.depth}: up to ${2 ** plan.depth} centres). They only choose which public examples seed the model.`,
    ],
    ['Seeds from', `${plan.publicExamples} public examples: those nearest the noisy centres`],
    ['Examples written', `${plan.examples} new examples into the public split, tagged generated (written from the public seeds alone: no further charge)`],
    budgetRow(plan.budget),
  ] as const;
  return <PlannedCost rows={rows} warnings={plan.warnings} />;
}
