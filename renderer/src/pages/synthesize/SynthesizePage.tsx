/**
 * Synthesize page: price, then generate a DP synthetic few-shot prompt from a dataset's
 * private split (after a free preview on the public split), follow it live, inspect the result and its certificate, export it, check
 * its utility on the held-out split, and verify an exported certificate.
 */
import { Alert, Typography } from '@mui/material';
import { useState } from 'react';
import type { SynthesisPlanDto } from '../../../../electron/shared/api/synthesis';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { PageFrame } from '../../components/PageFrame';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { useAsyncAction } from '../../components/useAsyncAction';
import { usePricedPlan } from '../../components/usePricedPlan';
import { useTrackedJob } from '../../components/useTrackedJob';
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
import { initialForm, toRequest, type Request as SynthesisRequestInput, type SynthesisFormState } from './synthesisForm';
import { EpsilonGuide } from '../../components/epsilonGuide';

function SynthesizeView({ api }: { api: VeilApi }) {
  const [form, setForm] = useState<SynthesisFormState>(initialForm);
  const [errors, setErrors] = useState<Partial<Record<keyof SynthesisFormState, string>>>({});
  const [selected, setSelected] = useState<number | null>(null);
  const { busy, error, run } = useAsyncAction();
  const { priced, edited, submit, start } = usePricedPlan<SynthesisRequestInput, SynthesisPlanDto>((request) => api['synth.plan'](request), run);
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const plans = useApiQuery(() => api['plan.list']({}), [api]);
  const runs = useApiQuery(() => api['synth.list']({}), [api]);
  const current = useApiQuery(() => (selected === null ? Promise.resolve(null) : api['synth.get']({ id: selected })), [api], selected);
  const refresh = () => (runs.reload(), current.reload());
  const { job, track } = useTrackedJob(api, refresh);
  const running = job !== null && !job.finished;

  const validated = () => {
    const result = toRequest(form);
    setErrors(result.ok ? {} : result.errors);
    return result.ok ? result.request : null;
  };
  const curveRequest = () => {
    const request = validated();
    return request && curveFromSynthesis(request);
  };
  const price = () => {
    const request = validated();
    if (request) void submit(request);
  };
  const generate = async () => {
    const started = await start((request) => api['synth.start'](request));
    if (!started) return;
    track(started.jobId);
    setSelected(started.runId);
    runs.reload();
  };

  return (
    <PageFrame title="Synthesize a DP few-shot prompt">
      <ActiveModelNotice api={api} />
      <Section title="Settings">
        <SynthesisForm
          form={form}
          errors={errors}
          datasets={datasets.data ?? []}
          plans={plans.data ?? []}
          busy={busy || running}
          priced={priced !== null}
          blocked={generateBlock(priced?.plan ?? null)}
          onChange={(next) => (edited(), setForm(next))}
          onPrice={price}
          onGenerate={() => void generate()}
        />
        {error && <Alert severity="error">{error}</Alert>}
        {priced && <PlanSummary plan={priced.plan} />}
        <PublicPreview api={api} request={validated} disabled={busy || running} />
        <UtilityCurve api={api} request={curveRequest} disabled={busy || running} />
        <EpsilonGuide />
        {running && <LiveProgress api={api} jobId={job.id} onCancel={() => void run(() => api['jobs.cancel']({ id: job.id }))} />}
      </Section>
      {current.data && (
        <Section title="Result">
          <RunView api={api} run={current.data} onChanged={refresh} />
        </Section>
      )}
      <Section title="Runs">
        {runs.data && runs.data.length > 0 ? <RunsList runs={runs.data} selected={selected} onSelect={setSelected} /> : <Typography variant="body2">No runs yet.</Typography>}
      </Section>
      <CertificateVerifier api={api} />
    </PageFrame>
  );
}

export default function SynthesizePage() {
  return connection.api ? <SynthesizeView api={connection.api} /> : null;
}
