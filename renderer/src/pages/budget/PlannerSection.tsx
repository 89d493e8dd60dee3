/**
 * The budget planner: the workload form, the priced plan (recomputed as the analyst moves
 * a slider), its charts and sampling modes (the details, asked after the price), and saved
 * plans. An error is shown inline above the last good result, which stays visible; nothing
 * typed is lost.
 */
import { Alert, Box, LinearProgress, Typography } from '@mui/material';
import { useMemo } from 'react';
import { joinPlan, type PlanRequest } from '../../../../electron/shared/api/planner';
import type { VeilApi } from '../../../../electron/shared/contract';
import { Section } from '../../components/Section';
import { PlanCharts } from './PlanCharts';
import { PlannerForm } from './PlannerForm';
import { formFromRequest, type PlannerFormState } from './plannerForm';
import { PlanResultView } from './PlanResultView';
import { SavedPlans } from './SavedPlans';
import { UtilityCurve } from '../../components/UtilityCurve';
import { curveFromPlan } from '../../components/utilityCurve';
import type { PlanComputation } from './usePlanCompute';

/**
 * The charts of the details shown (their own headline's: an earlier one stays, marked busy,
 * while the shown headline's details load), with a progress bar while they load.
 */
function PlanDetailsView({ plan }: { plan: PlanComputation }) {
  const { details } = plan;
  const busy = plan.detailsComputing || plan.computing;
  const shown = useMemo(() => details && joinPlan(details.headline, details.details), [details]);
  return (
    <Box sx={{ mt: 2 }}>
      <Box sx={{ height: 4 }}>{plan.detailsComputing && <LinearProgress aria-label="computing the curves and the break-even" />}</Box>
      {plan.detailsError && <Alert severity="error">Could not compute the curves and the break-even: {plan.detailsError}</Alert>}
      {shown ? (
        <Box aria-busy={busy} sx={{ opacity: busy ? 0.7 : 1 }}>
          <PlanCharts result={shown} />
        </Box>
      ) : (
        plan.detailsComputing && <Typography variant="body2" color="text.secondary">Computing the curves, the break-even and the sampling modes…</Typography>
      )}
    </Box>
  );
}

interface Props {
  api: VeilApi;
  dataset: string;
  form: PlannerFormState;
  onChange: (form: PlannerFormState) => void;
  request: PlanRequest | null;
  requestError: string | null;
  plan: PlanComputation;
}

/** `plan.result` is the chosen dataset's (or null). */
export function PlannerSection({ api, dataset, form, onChange, request, requestError, plan }: Props) {
  const { result, details } = plan;
  const current = details?.headline === result ? details.details : null;
  return (
    <Section title="Planner">
      <PlannerForm form={form} deltaError={requestError} onChange={onChange} />
      <Box sx={{ height: 4 }}>{plan.computing && <LinearProgress aria-label="computing the plan" />}</Box>
      {plan.error && <Alert severity="error">Could not price this plan: {plan.error}</Alert>}
      {result && (
        <Box aria-busy={plan.computing} sx={{ opacity: plan.computing ? 0.7 : 1 }}>
          <PlanResultView result={result} details={current} detailsFailed={current === null && plan.detailsError !== null} />
        </Box>
      )}
      {result && <PlanDetailsView plan={plan} />}
      {request?.workload.kind === 'synth' && <UtilityCurve api={api} request={() => curveFromPlan(request)} disabled={false} />}
      <SavedPlans api={api} dataset={dataset} request={request} onLoad={(saved) => onChange(formFromRequest(saved, form))} />
    </Section>
  );
}
