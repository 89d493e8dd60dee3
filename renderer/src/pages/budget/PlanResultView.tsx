/**
 * A priced plan in numbers: calibrated noise, ε with its PLD bounds and the RDP
 * cross-check, sampling rates (and both sampling modes once the details are in), the budget
 * after the plan against the cap, the warnings with their reasons, and how long the service
 * took to compute it.
 */
import { Alert, LinearProgress, Stack, Typography } from '@mui/material';
import type { PlanDetails, PlanHeadline } from '../../../../electron/shared/api/planner';
import { KeyValueTable, type KeyValueRow } from '../../components/KeyValueTable';
import { formatDelta, formatEpsilon, remainingInTerms, spentPercent } from './ledgerView';
import { noiseText, samplingText } from './planCharts';
import { samplingModeLines } from '../../../../electron/shared/samplingModesText';
import { CompositionNote } from '../../components/epsilonGuide';

function BudgetAfterPlan({ budget, workload }: { budget: NonNullable<PlanHeadline['budget']>; workload: PlanHeadline['request']['workload'] }) {
  const over = budget.afterPlan > budget.cap;
  return (
    <Stack spacing={0.5}>
      <LinearProgress
        variant="determinate"
        value={spentPercent(budget.afterPlan, budget.cap)}
        color={over ? 'error' : 'primary'}
        aria-label="budget after the plan"
        aria-valuetext={`ε ${formatEpsilon(budget.afterPlan)} of ${formatEpsilon(budget.cap)}`}
      />
      <Typography variant="body2">
        ε {formatEpsilon(budget.spent)} spent now → {formatEpsilon(budget.afterPlan)} after this plan, of a cap of {formatEpsilon(budget.cap)} at δ ={' '}
        {formatDelta(budget.delta)}
        {over ? ' — over the cap: the plan would be refused' : ''}
      </Typography>
      <Typography variant="body2">Left for: {remainingInTerms(workload, budget.remainingRuns, budget.remainingAtLimit)}</Typography>
      <CompositionNote />
    </Stack>
  );
}

/** The sampling modes of a synthesis plan: from its details, once they are in (or why they are not). */
function samplingModesRow(result: PlanHeadline, details: PlanDetails | null, detailsFailed: boolean): KeyValueRow[] {
  if (result.request.workload.kind !== 'synth') return [];
  if (!details?.samplingModes) return [['Sampling modes', detailsFailed ? 'not available: the details could not be computed (see below)' : 'computing both modes side by side…']];
  return [['Sampling modes', <span style={{ whiteSpace: 'pre-line' }}>{samplingModeLines(details.samplingModes).join('\n')}</span>]];
}

/** `details`: the details of this very headline, or null while they load or after they failed (`detailsFailed`). */
export function PlanResultView({ result, details, detailsFailed = false }: { result: PlanHeadline; details: PlanDetails | null; detailsFailed?: boolean }) {
  const { epsilon } = result;
  const rows: KeyValueRow[] = [
    ['Calibrated noise', noiseText(result.noise)],
    [
      'ε of the plan',
      `${formatEpsilon(epsilon.upper)} at δ = ${formatDelta(result.delta)} (${result.accountant.toUpperCase()}: lower ${formatEpsilon(epsilon.lower)}, estimate ${formatEpsilon(epsilon.estimate)}, upper ${formatEpsilon(epsilon.upper)})`,
    ],
    ['RDP cross-check', result.rdpEpsilon === null ? 'not available: RDP here cannot account this event (a Poisson-subsampled mechanism other than the Gaussian)' : `ε ≤ ${formatEpsilon(result.rdpEpsilon)}`],
    ['Sampling rates', samplingText(result.samplingRates)],
    ...samplingModesRow(result, details, detailsFailed),
    ['Privacy units N', result.units.toLocaleString('en-US')],
    ['Budget', result.budget ? <BudgetAfterPlan budget={result.budget} workload={result.request.workload} /> : 'no budget set for this dataset'],
    ['Computed in', `${(result.seconds * 1000).toFixed(0)} ms (in the service process)${details ? `; curves, break-even and sampling modes ${(details.seconds * 1000).toFixed(0)} ms more` : ''}`],
  ];
  return (
    <Stack spacing={1}>
      <KeyValueTable label="plan result" rows={rows} />
      {result.warnings.length > 0 && (
        <Stack spacing={1} role="list" aria-label="plan warnings">
          {result.warnings.map((warning) => (
            <Alert key={warning} severity="warning" role="listitem">
              {warning}
            </Alert>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
