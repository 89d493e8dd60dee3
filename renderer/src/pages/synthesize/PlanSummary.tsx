/** What a planned job costs: calibrated noise, ε with its bounds (size release included), the pool sizes' charge, the budget, warnings. */
import { Alert, Stack } from '@mui/material';
import type { SynthesisPlanDto } from '../../../../electron/shared/api/synthesis';
import { KeyValueTable } from '../../components/KeyValueTable';
import { CompositionNote } from '../../components/epsilonGuide';

const fmt = (x: number, digits = 4) => x.toPrecision(digits);

export function PlanSummary({ plan }: { plan: SynthesisPlanDto }) {
  const noise = plan.noise.kind === 'gaussian' ? `Gaussian σ = ${fmt(plan.noise.sigma)} per unit sensitivity` : `ε per token = ${fmt(plan.noise.epsilonPerToken)}`;
  const pools = plan.pools.map((p) => `${p.label ?? 'all'}: ${p.demonstrations} × from ${p.units} units (q = ${fmt(p.q, 3)})`).join('; ');
  const rows = [
    ['Noise', noise],
    ['ε of the job', `${fmt(plan.epsilon.upper)} (estimate ${fmt(plan.epsilon.estimate)}, lower ${fmt(plan.epsilon.lower)}) at δ = ${plan.delta.toExponential(2)}`],
    ['Accountant', plan.accountant],
    ['Pools', pools],
    [
      'Pool sizes',
      plan.sizeEpsilon === null
        ? 'declared public: the exact sizes are used, and nothing is charged for them'
        : `exact here, shown to you only; the job first releases noisy sizes and charges them as their own ledger entry (ε = ${fmt(plan.sizeEpsilon, 2)} of the job's ε, spent even if the job is then refused), then prices its noise and q from them`,
    ],
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
