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
import { RunningJob } from '../../components/RunningJob';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { usePricedJob } from '../../components/usePricedJob';
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
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const plans = useApiQuery(() => api['plan.list']({}), [api]);
  const runs = useApiQuery(() => api['synth.list']({}), [api]);
  const current = useApiQuery(() => (selected === null ? Promise.resolve(null) : api['synth.get']({ id: selected })), [api], selected);
  const refresh = () => (runs.reload(), current.reload());
  const job = usePricedJob<SynthesisRequestInput, SynthesisPlanDto>(api, (request) => api['synth.plan'](request), refresh);
  const { priced, edited, busy } = job;

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
    if (request) void job.submit(request);
  };
  const generate = async () => {
    const started = await job.begin((request) => api['synth.start'](request));
    if (!started) return;
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
          busy={busy}
          priced={priced !== null}
          blocked={generateBlock(priced?.plan ?? null)}
          onChange={(next) => (edited(), setForm(next))}
          onPrice={price}
          onGenerate={() => void generate()}
        />
        {job.error && <Alert severity="error">{job.error}</Alert>}
        {priced && <PlanSummary plan={priced.plan} />}
        <PublicPreview api={api} request={validated} disabled={busy} />
        <UtilityCurve api={api} request={curveRequest} disabled={busy} />
        <EpsilonGuide />
        <RunningJob job={job} label="generation progress">
          {(running) => <LiveProgress api={api} jobId={running.id} />}
        </RunningJob>
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
