/** What a planned job costs: calibrated noise, ε with its bounds, the budget, warnings. */
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
    budgetRow(plan.budget),
  ] as const;
  return <PlannedCost rows={rows} warnings={plan.warnings} />;
}
