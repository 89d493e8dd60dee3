/**
 * The budget planner: the workload form, the priced plan (recomputed as the analyst moves
 * a slider), its charts, and saved plans. An error is shown inline above the last good
 * result, which stays visible; nothing typed is lost.
 */
import { Alert, Box, LinearProgress } from '@mui/material';
import type { PlanRequest } from '../../../../electron/shared/api/planner';
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
  const { result } = plan;
  return (
    <Section title="Planner">
      <PlannerForm form={form} deltaError={requestError} onChange={onChange} />
      <Box sx={{ height: 4 }}>{plan.computing && <LinearProgress aria-label="computing the plan" />}</Box>
      {plan.error && <Alert severity="error">Could not price this plan: {plan.error}</Alert>}
      {result && (
        <Box aria-busy={plan.computing} sx={{ opacity: plan.computing ? 0.7 : 1 }}>
          <PlanResultView result={result} />
          <Box sx={{ mt: 2 }}>
            <PlanCharts result={result} />
          </Box>
        </Box>
      )}
      {request?.workload.kind === 'synth' && <UtilityCurve api={api} request={() => curveFromPlan(request)} disabled={false} />}
      <SavedPlans api={api} dataset={dataset} request={request} onLoad={(saved) => onChange(formFromRequest(saved, form))} />
    </Section>
  );
}
