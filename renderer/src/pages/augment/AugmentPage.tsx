/**
 * Augment page (README "Augmenting a thin public set"): price an augmentation of a dataset's
 * public split — ε of the one DPM release, what is released, M examples, the budget after —
 * with nothing charged; start it (one ledger reservation) and follow or cancel it; read past
 * runs with their certificate and the examples written; verify an exported certificate.
 * Refusals (over budget, no public examples, an unfit model) are the service's words.
 */
import { Alert, Typography } from '@mui/material';
import { useState } from 'react';
import type { AugmentPlan, AugmentRequest } from '../../../../electron/shared/api/augmentation';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { CertificateVerifier } from '../../components/CertificateVerifier';
import { RetryAlert } from '../../components/RetryAlert';
import { PageFrame } from '../../components/PageFrame';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { useAsyncAction } from '../../components/useAsyncAction';
import { usePricedPlan } from '../../components/usePricedPlan';
import { useTrackedJob } from '../../components/useTrackedJob';
import { ActiveModelNotice } from '../../components/ActiveModelNotice';
import { AugmentForm } from './AugmentForm';
import { initialAugmentForm, toAugmentRequest, type AugmentFormErrors, type AugmentFormState } from './augmentForm';
import { AugmentPlanSummary } from './AugmentPlanSummary';
import { AugmentProgress } from './AugmentProgress';
import { AugmentRunsList } from './AugmentRunsList';
import { AugmentRunView } from './AugmentRunView';

export function AugmentView({ api }: { api: VeilApi }) {
  const [form, setForm] = useState<AugmentFormState>(initialAugmentForm);
  const [errors, setErrors] = useState<AugmentFormErrors>({});
  const [selected, setSelected] = useState<number | null>(null);
  const { busy, error, run } = useAsyncAction();
  const cancel = useAsyncAction();
  const { priced, edited, submit, start } = usePricedPlan<AugmentRequest, AugmentPlan>((request) => api['augment.plan'](request), run);
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const runs = useApiQuery(() => api['augment.list']({}), [api]);
  const current = useApiQuery(() => (selected === null ? Promise.resolve(null) : api['augment.get']({ id: selected })), [api], selected);
  const { job, track } = useTrackedJob(api, () => (runs.reload(), current.reload()));
  const running = job !== null && !job.finished;

  const price = () => {
    const result = toAugmentRequest(form);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) void submit(result.request);
  };
  const augment = async () => {
    const started = await start((request) => api['augment.start'](request));
    if (!started) return;
    track(started.jobId);
    setSelected(started.runId);
    runs.reload();
  };

  return (
    <PageFrame title="Augment a thin public set">
      <ActiveModelNotice api={api} />
      <Section title="Settings">
        <RetryAlert what="list the datasets" error={datasets.error} onRetry={datasets.reload} />
        <AugmentForm
          form={form}
          errors={errors}
          datasets={datasets.data ?? []}
          busy={busy || running}
          priced={priced !== null}
          onChange={(next) => (edited(), setForm(next))}
          onPrice={price}
          onStart={() => void augment()}
        />
        {error && <Alert severity="error">{error}</Alert>}
        {priced && <AugmentPlanSummary plan={priced.plan} />}
        {running && <AugmentProgress job={job} cancelling={cancel.busy} onCancel={() => void cancel.run(() => api['jobs.cancel']({ id: job.id }))} />}
        {cancel.error && <Alert severity="error">{cancel.error}</Alert>}
      </Section>
      {current.data && (
        <Section title="Result">
          <AugmentRunView api={api} run={current.data} />
        </Section>
      )}
      <Section title="Runs">
        <RetryAlert what="list the augmentation runs" error={runs.error} onRetry={runs.reload} />
        {runs.data && runs.data.length > 0 ? <AugmentRunsList runs={runs.data} selected={selected} onSelect={setSelected} /> : <Typography variant="body2">No runs yet.</Typography>}
      </Section>
      <CertificateVerifier api={api} label="Exported veil.augmentation/v1 JSON" />
    </PageFrame>
  );
}

export default function AugmentPage() {
  return connection.api ? <AugmentView api={connection.api} /> : null;
}
