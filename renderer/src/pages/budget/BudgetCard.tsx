/**
 * Where the dataset's budget stands: ε spent against the cap at δ (PLD bounds, RDP
 * cross-check beside), the ε left, what is left in the analyst's terms for the plan in the
 * planner, and the reservations — a reservation whose job did not finish counts as spent.
 */
import { Alert, LinearProgress, Stack, Typography } from '@mui/material';
import type { EpsilonBoundsDto, LedgerSummary } from '../../../../electron/shared/api/ledger';
import type { PlanHeadline } from '../../../../electron/shared/api/planner';
import { KeyValueTable } from '../../components/KeyValueTable';
import { Section } from '../../components/Section';
import { formatDelta, formatEpsilon, remainingInTerms, reservationsLine, spentPercent } from './ledgerView';
import { CompositionNote } from '../../components/epsilonGuide';

const bounds = ({ lower, estimate, upper }: EpsilonBoundsDto) =>
  upper === 'Infinity' ? '∞: no finite ε at this δ' : `≤ ${formatEpsilon(upper)} (lower ${formatEpsilon(lower)}, estimate ${formatEpsilon(estimate)})`;

export function BudgetCard({ summary, plan }: { summary: LedgerSummary; plan: PlanHeadline | null }) {
  const { budget, spent, reservations } = summary;
  if (!budget) {
    return (
      <Section title="Budget">
        <Alert severity="info">No budget is set for {summary.dataset.name}: set one below. Releases from this dataset are refused until then.</Alert>
      </Section>
    );
  }
  const percent = spentPercent(spent.epsilon.upper, budget.epsilon);
  const planBudget = plan?.budget;
  return (
    <Section title="Budget">
      <Stack spacing={0.5}>
        <Typography variant="body1" data-testid="budget-spent">
          ε spent {formatEpsilon(spent.epsilon.upper)} of {formatEpsilon(budget.epsilon)} at δ = {formatDelta(budget.delta)}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={percent}
          color={percent >= 100 ? 'error' : percent >= 80 ? 'warning' : 'primary'}
          aria-label="share of the ε cap spent"
          aria-valuetext={`${percent.toFixed(0)} % of the cap`}
          sx={{ height: 10, borderRadius: 1 }}
        />
      </Stack>
      <KeyValueTable
        label="budget"
        rows={[
          [`Spent (${spent.accountant.toUpperCase()})`, bounds(spent.epsilon)],
          ['RDP cross-check', spent.rdp ? bounds(spent.rdp) : 'not available: RDP here cannot account one of the charged events (a Poisson-subsampled mechanism other than the Gaussian)'],
          [
            'Remaining ε (cap − spent)',
            <>
              {formatEpsilon(summary.remainingEpsilon)}
              <CompositionNote />
            </>,
          ],
          [
            'What is left',
            planBudget
              ? `${remainingInTerms(plan.request.workload, planBudget.remainingRuns, planBudget.remainingAtLimit)} (at ε = ${formatEpsilon(plan.request.epsilon)} each, as planned below; counted by the accountant, not by dividing cap − spent)`
              : 'plan a workload below to see how many more releases of that kind fit (composition is not a sum: cap − spent is not what a further release may cost)',
          ],
          ['Reservations', reservationsLine(reservations)],
          ['Ledger', `${summary.entries} ${summary.entries === 1 ? 'entry' : 'entries'} · head ${summary.head.hash.slice(0, 16)}…`],
        ]}
      />
      {spent.epsilon.upper === 'Infinity' && (
        <Alert severity="error">
          No finite ε bounds what is spent at δ = {formatDelta(budget.delta)}: a release was charged as (ε, δ₀)-DP with δ₀ above this δ (the
          budget&apos;s δ was lowered after it). Further releases are refused.
        </Alert>
      )}
      {reservations.orphaned > 0 && (
        <Alert severity="warning">
          {reservations.orphaned} reservation{reservations.orphaned === 1 ? '' : 's'} whose job did not finish {reservations.orphaned === 1 ? 'is' : 'are'} counted as spent: the
          output may have been released before the job stopped.
        </Alert>
      )}
    </Section>
  );
}
