/**
 * Budget page: for a chosen dataset, what its privacy budget has spent and has left (in ε
 * and in releases of the planned kind), set or change the budget, plan a workload before
 * running it, and the tamper-evident ledger — verify, export, print, record an external
 * release. Everything follows `ledger.changed`, so a release elsewhere shows at once.
 */
import { Alert, MenuItem, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import type { LedgerEntryDto } from '../../../../electron/shared/api/ledger';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { PageFrame } from '../../components/PageFrame';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { BudgetCard } from './BudgetCard';
import { BudgetForm } from './BudgetForm';
import { needsUnitCount, privacyUnits } from './budgetForm';
import { LedgerActions } from './LedgerActions';
import { LedgerTable } from './LedgerTable';
import { initialPlannerForm, toPlanRequest, type PlannerFormState } from './plannerForm';
import { PlannerSection } from './PlannerSection';
import { RecordReleaseDialog } from './RecordReleaseDialog';
import { useLedger } from './useLedger';
import { usePlanCompute } from './usePlanCompute';
import { RetryAlert } from '../../components/RetryAlert';

/** A stable empty list, so the memoised ledger table does not redraw while the entries load. */
const NO_ENTRIES: readonly LedgerEntryDto[] = [];

const charges = ({ reservations: r }: { reservations: { reserved: number; committed: number; orphaned: number } }) => r.reserved + r.committed + r.orphaned;

function BudgetView({ api }: { api: VeilApi }) {
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const [chosen, setChosen] = useState('');
  const [plannerForm, setPlannerForm] = useState<PlannerFormState>(initialPlannerForm);
  const [recording, setRecording] = useState(false);
  useEffect(() => api.on('vault.changed', datasets.reload), [api]);

  const list = datasets.data ?? [];
  const dataset = list.find((d) => d.name === chosen) ?? list[0];
  const name = dataset?.name ?? '';
  const { summary, entries } = useLedger(api, dataset);
  const current = summary.data ?? undefined;
  // Without a budget, N of the default δ as the services count it (a budget carries it).
  const countUnits = needsUnitCount(dataset, current?.budget);
  const counted = useApiQuery(() => (countUnits ? api['budget.privacyUnits']({ dataset: name }) : Promise.resolve(null)), [api, countUnits, dataset], name); // again on every vault change (a new list)
  const planRequest = name ? toPlanRequest(name, plannerForm) : null;
  const request = planRequest?.ok ? planRequest.request : null;
  const plan = usePlanCompute(api, request, current?.head.hash);
  const planForDataset = plan.result?.request.dataset === name ? plan.result : null;
  const detailsForDataset = plan.details?.headline.request.dataset === name ? plan.details : null;

  return (
    <PageFrame title="Privacy budget" maxWidth={1200}>
      <RetryAlert what="list the datasets" error={datasets.error} onRetry={datasets.reload} />
      <TextField
        select
        label="Dataset"
        value={name}
        onChange={(e) => setChosen(e.target.value)}
        helperText={datasets.data && list.length === 0 ? 'no datasets yet: create one in the Vault' : 'the budget and the ledger are per dataset'}
        size="small"
        sx={{ maxWidth: 360 }}
      >
        {list.map((d) => (
          <MenuItem key={d.id} value={d.name}>
            {d.name}
          </MenuItem>
        ))}
      </TextField>
      <RetryAlert what="read the budget" error={summary.error} onRetry={summary.reload} />
      <RetryAlert what="count the privacy units" error={counted.error} onRetry={counted.reload} />
      {dataset && current && (
        <>
          <BudgetCard summary={current} plan={planForDataset} />
          <BudgetForm key={`budget-${name}`} api={api} dataset={name} budget={current.budget} units={privacyUnits(current.budget, dataset, counted.data)} charged={charges(current) > 0} />
          <PlannerSection
            api={api}
            dataset={name}
            form={plannerForm}
            onChange={setPlannerForm}
            request={request}
            requestError={planRequest?.ok === false ? planRequest.error : null}
            plan={{ ...plan, result: planForDataset, details: detailsForDataset }}
          />
          <Section title="Ledger">
            <LedgerActions key={`ledger-${name}`} api={api} dataset={name} onRecord={() => setRecording(true)} />
            {entries.error && <Alert severity="error">Could not read the ledger: {entries.error.message}</Alert>}
            <LedgerTable entries={entries.data ?? NO_ENTRIES} />
          </Section>
          <RecordReleaseDialog key={`release-${name}`} api={api} dataset={name} open={recording} onClose={() => setRecording(false)} />
        </>
      )}
    </PageFrame>
  );
}

export default function BudgetPage() {
  return connection.api ? <BudgetView api={connection.api} /> : null;
}
