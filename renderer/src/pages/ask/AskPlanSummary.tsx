/** What a batch of answers costs: the calibrated noise, ε with its bounds, the budget and how many such batches it has left. */
import type { AnswerPlanDto } from '../../../../electron/shared/api/answering';
import { budgetRow, PlannedCost } from '../../components/PlannedCost';

const fmt = (x: number, digits = 4) => x.toPrecision(digits);

export function AskPlanSummary({ plan }: { plan: AnswerPlanDto }) {
  const n = plan.noise;
  const noise = n.kind === 'pure' ? `ε per query = ${fmt(n.epsilonPerQuery)}` : n.kind === 'sga' ? `ρ per query = ${fmt(n.rho)} (private clustering's noise parameter; the charge is its event)` : `${n.kind === 'gaussian' ? 'Gaussian' : 'exact discrete Gaussian'} σ = ${fmt(n.sigma)}`;
  const b = plan.budget;
  const left = b && `${b.atLimit ? 'at least ' : ''}${b.batchesLeft} more such ${b.batchesLeft === 1 ? 'batch' : 'batches'} (${b.batchesLeft * plan.queries} queries) fit`;
  const rows = [
    ['Queries', `${plan.queries} by ${plan.aggregation}`],
    ['Noise', `${noise}${plan.ptrDelta === null ? '' : `; PTR δ₀ = ${plan.ptrDelta.toExponential(2)} per query`}`],
    ['ε of the batch', `${fmt(plan.epsilon.upper)} (estimate ${fmt(plan.epsilon.estimate)}) at δ = ${plan.delta.toExponential(2)}`],
    [
      'Sampling',
      plan.sizeEpsilon === null
        ? `q = ${fmt(plan.q, 3)} per query (the size is declared public)`
        : `q = ${fmt(plan.q, 3)} per query here from the exact size, shown to you only; the job first releases and charges a noisy size (ε = ${fmt(plan.sizeEpsilon, 2)}, spent even if the batch is then refused) and prices from it`,
    ],
    budgetRow(b, { job: 'batch', left: left ?? undefined }),
  ] as const;
  return <PlannedCost rows={rows} warnings={plan.warnings} />;
}
