/** What an augmentation would charge and release, before anything is charged: ε and δ, the release, M, the budget after, warnings. */
import { Alert, Stack } from '@mui/material';
import type { AugmentPlan } from '../../../../electron/shared/api/augmentation';
import { KeyValueTable } from '../../components/KeyValueTable';
import { CompositionNote } from '../../components/epsilonGuide';

const fmt = (x: number, digits = 4) => x.toPrecision(digits);

export function AugmentPlanSummary({ plan }: { plan: AugmentPlan }) {
  const rows = [
    ['ε charged', `${fmt(plan.epsilon.upper)} (estimate ${fmt(plan.epsilon.estimate)}, lower ${fmt(plan.epsilon.lower)}; ${plan.accountant}) at δ = ${plan.delta.toExponential(2)}`],
    [
      'Released',
      `noisy DPM centres and counts of the private split's embeddings (one point per privacy unit, the whole split, no subsampling; ρ = ${fmt(plan.rho)}, depth ${plan.depth}: up to ${2 ** plan.depth} centres). They only choose which public examples seed the model.`,
    ],
    ['Seeds from', `${plan.publicExamples} public examples: those nearest the noisy centres`],
    ['Examples written', `${plan.examples} new examples into the public split, tagged generated (written from the public seeds alone: no further charge)`],
    [
      'Budget',
      plan.budget ? (
        <>
          {fmt(plan.budget.spent)} spent of {fmt(plan.budget.cap)}; after this job {fmt(plan.budget.afterJob)}
          <CompositionNote />
        </>
      ) : (
        'no budget set for this dataset'
      ),
    ],
  ] as const;
  return (
    <Stack spacing={1} aria-label="plan">
      <KeyValueTable label="planned cost" rows={rows} />
      {plan.warnings.map((w) => (
        <Alert key={w} severity="warning">
          {w}
        </Alert>
      ))}
    </Stack>
  );
}
