/** What a planned job costs: calibrated noise, ε with its bounds (size release included), the pool sizes' charge, the budget, warnings. */
import type { SynthesisPlanDto } from '../../../../electron/shared/api/synthesis';
import { budgetRow, PlannedCost } from '../../components/PlannedCost';

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
    budgetRow(plan.budget),
  ] as const;
  return <PlannedCost rows={rows} warnings={plan.warnings} />;
}
