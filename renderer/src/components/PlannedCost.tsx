/** A priced job before anything is charged: its cost as a "planned cost" table, the budget row, and the plan's warnings. */
import { Alert, Stack } from '@mui/material';
import { KeyValueTable, type KeyValueRow } from './KeyValueTable';
import { CompositionNote } from './epsilonGuide';

const fmt = (x: number) => x.toPrecision(4);

/**
 * The budget now and after the job (accounted upper bounds), or that the dataset has none;
 * `job` names what is priced ("batch" for answers), `left` says how many more such jobs fit.
 */
export function budgetRow(budget: { cap: number; spent: number; afterJob: number } | null, options: { job?: string; left?: string } = {}): KeyValueRow {
  return [
    'Budget',
    budget ? (
      <>
        {fmt(budget.spent)} spent of {fmt(budget.cap)}; after this {options.job ?? 'job'} {fmt(budget.afterJob)}
        {options.left ? `; ${options.left}` : ''}
        <CompositionNote />
      </>
    ) : (
      'no budget set for this dataset'
    ),
  ];
}

export function PlannedCost({ rows, warnings }: { rows: readonly KeyValueRow[]; warnings: readonly string[] }) {
  return (
    <Stack spacing={1} aria-label="plan">
      <KeyValueTable label="planned cost" rows={rows} />
      {warnings.map((w) => (
        <Alert key={w} severity="warning">
          {w}
        </Alert>
      ))}
    </Stack>
  );
}
