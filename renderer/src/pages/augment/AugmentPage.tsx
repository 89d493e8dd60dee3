/**
 * Augment page (README "Augmenting a thin public set"): price an augmentation of a dataset's
 * public split — ε of the one DPM release, what is released, M examples, the budget after —
 * with nothing charged; start it (one ledger reservation) and follow or cancel it; read past
 * runs with their certificate and the examples written; verify an exported certificate.
 * Refusals (over budget, no public examples, an unfit model) are the service's words.
 */
import { Alert, Typography } from '@mui/material';
import { useState } from 'react';
import type { JobProgress } from '../../../../electron/shared/api/jobs';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { CertificateVerifier } from '../../components/CertificateVerifier';
import { JobProgressBar } from '../../components/JobProgressBar';
import { RetryAlert } from '../../components/RetryAlert';
import { PageFrame } from '../../components/PageFrame';
import { RunningJob } from '../../components/RunningJob';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { usePricedJob } from '../../components/usePricedJob';
import { useRuns } from '../../components/useRuns';
import { ActiveModelNotice } from '../../components/ActiveModelNotice';
import { AugmentForm } from './AugmentForm';
import { initialAugmentForm, toAugmentRequest, type AugmentFormState } from './augmentForm';
import { AugmentPlanSummary } from './AugmentPlanSummary';
import { AugmentRunsList } from './AugmentRunsList';
import { AugmentRunView } from './AugmentRunView';

/** The stage (embedding, writing example i of M) from the job's progress events. */
const describe = (p: Omit<JobProgress, 'jobId'>) => (p.message ? `${p.stage}: ${p.message}` : `${p.stage} (${p.done} of ${p.total})`);

export function AugmentView({ api }: { api: VeilApi }) {
  const [form, setForm] = useState<AugmentFormState>(initialAugmentForm);
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const runs = useRuns({ list: () => api['augment.list']({}), get: (id) => api['augment.get']({ id }) }, [api]);
  const job = usePricedJob(api, { read: () => toAugmentRequest(form), price: (request) => api['augment.plan'](request), start: (request) => api['augment.start'](request), runs });
  const { priced, edited } = job;

  return (
    <PageFrame title="Augment a thin public set">
      <ActiveModelNotice api={api} />
      <Section title="Settings">
        <RetryAlert what="list the datasets" error={datasets.error} onRetry={datasets.reload} />
        <AugmentForm
          form={form}
          job={job}
          datasets={datasets.data ?? []}
          onChange={(next) => (edited(), setForm(next))}
        />
        {job.error && <Alert severity="error">{job.error}</Alert>}
        {priced && <AugmentPlanSummary plan={priced.plan} />}
        <RunningJob job={job} label="augmentation progress">
          {(running) => <JobProgressBar job={running} what="Augmentation" describe={describe} />}
        </RunningJob>
      </Section>
      {runs.current.data && (
        <Section title="Result">
          <AugmentRunView api={api} run={runs.current.data} />
        </Section>
      )}
      <Section title="Runs">
        <RetryAlert what="list the augmentation runs" error={runs.list.error} onRetry={runs.list.reload} />
        {runs.list.data && runs.list.data.length > 0 ? <AugmentRunsList runs={runs.list.data} selected={runs.selected} onSelect={runs.select} /> : <Typography variant="body2">No runs yet.</Typography>}
      </Section>
      <CertificateVerifier api={api} label="Exported veil.augmentation/v1 JSON" />
    </PageFrame>
  );
}

export default function AugmentPage() {
  return connection.api ? <AugmentView api={connection.api} /> : null;
}
