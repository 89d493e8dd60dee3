/**
 * Synthesize page: price, then generate a DP synthetic few-shot prompt from a dataset's
 * private split (after a free preview on the public split), follow it live, inspect the result and its certificate, export it, check
 * its utility on the held-out split, and verify an exported certificate.
 */
import { Alert, Typography } from '@mui/material';
import { useState } from 'react';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { PageFrame } from '../../components/PageFrame';
import { RunningJob } from '../../components/RunningJob';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { usePricedJob } from '../../components/usePricedJob';
import { useRuns } from '../../components/useRuns';
import { ActiveModelNotice } from '../../components/ActiveModelNotice';
import { generateBlock } from './generateBlock';
import { CertificateVerifier } from '../../components/CertificateVerifier';
import { LiveProgress } from './LiveProgress';
import { PlanSummary } from './PlanSummary';
import { PublicPreview } from './PublicPreview';
import { UtilityCurve } from '../../components/UtilityCurve';
import { curveFromSynthesis } from '../../components/utilityCurve';
import { RunsList } from './RunsList';
import { RunView } from './RunView';
import { SynthesisForm } from './SynthesisForm';
import { initialForm, toRequest, type SynthesisFormState } from './synthesisForm';
import { EpsilonGuide } from '../../components/epsilonGuide';

function SynthesizeView({ api }: { api: VeilApi }) {
  const [form, setForm] = useState<SynthesisFormState>(initialForm);
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const plans = useApiQuery(() => api['plan.list']({}), [api]);
  const runs = useRuns({ list: () => api['synth.list']({}), get: (id) => api['synth.get']({ id }) }, [api]);
  const job = usePricedJob(api, { read: () => toRequest(form), price: (request) => api['synth.plan'](request), start: (request) => api['synth.start'](request), runs });
  const { priced, edited, busy } = job;

  const curveRequest = () => {
    const request = job.check();
    return request && curveFromSynthesis(request);
  };

  return (
    <PageFrame title="Synthesize a DP few-shot prompt">
      <ActiveModelNotice api={api} />
      <Section title="Settings">
        <SynthesisForm
          form={form}
          job={job}
          datasets={datasets.data ?? []}
          plans={plans.data ?? []}
          blocked={generateBlock(priced?.plan ?? null)}
          onChange={(next) => (edited(), setForm(next))}
        />
        {job.error && <Alert severity="error">{job.error}</Alert>}
        {priced && <PlanSummary plan={priced.plan} />}
        <PublicPreview api={api} request={job.check} disabled={busy} />
        <UtilityCurve api={api} request={curveRequest} disabled={busy} />
        <EpsilonGuide />
        <RunningJob job={job} label="generation progress">
          {(running) => <LiveProgress api={api} jobId={running.id} />}
        </RunningJob>
      </Section>
      {runs.current.data && (
        <Section title="Result">
          <RunView api={api} run={runs.current.data} onChanged={runs.refresh} />
        </Section>
      )}
      <Section title="Runs">
        {runs.list.data && runs.list.data.length > 0 ? <RunsList runs={runs.list.data} selected={runs.selected} onSelect={runs.select} /> : <Typography variant="body2">No runs yet.</Typography>}
      </Section>
      <CertificateVerifier api={api} />
    </PageFrame>
  );
}

export default function SynthesizePage() {
  return connection.api ? <SynthesizeView api={connection.api} /> : null;
}
