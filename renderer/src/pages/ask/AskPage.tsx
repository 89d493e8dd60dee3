/**
 * Ask page: private answers from a dataset's private split (DP-ICL) — price a batch, ask it
 * (one ledger reservation), follow it live, read the released answers, export them with the
 * batch's certificate, and verify an exported certificate.
 */
import { Alert, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useState } from 'react';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { PageFrame } from '../../components/PageFrame';
import { RunningJob } from '../../components/RunningJob';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { usePricedJob } from '../../components/usePricedJob';
import { useRuns } from '../../components/useRuns';
import { CertificateVerifier } from '../../components/CertificateVerifier';
import { AnswersView } from './AnswersView';
import { AskForm } from './AskForm';
import { AskPlanSummary } from './AskPlanSummary';
import { AskProgress } from './AskProgress';
import { effectiveAggregation, initialAskForm, toAskRequest, type AskFormState } from './askForm';
import { PublicSourceControl } from './PublicSourceControl';

export function AskView({ api }: { api: VeilApi }) {
  const [form, setForm] = useState<AskFormState>(initialAskForm);
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const runs = useRuns({ list: () => api['ask.list']({}), get: (id) => api['ask.get']({ id }) }, [api]);
  const publicSource = useApiQuery(() => (form.dataset === '' ? Promise.resolve(null) : api['publicSource.get']({ dataset: form.dataset })), [api], form.dataset);
  const task = datasets.data?.find((d) => d.name === form.dataset)?.task;
  const effective = effectiveAggregation(form, task, (publicSource.data?.uses ?? 'none') !== 'none');
  const job = usePricedJob(api, { read: () => toAskRequest(form, effective), price: (request) => api['ask.plan'](request), start: (request) => api['ask.start'](request), runs });
  const { priced, edited } = job;

  return (
    <PageFrame title="Ask with private examples">
      <Section title="Settings">
        <AskForm
          form={form}
          job={job}
          datasets={datasets.data ?? []}
          onChange={(next) => (edited(), setForm(next))}
          effective={effective}
          publicExamples={publicSource.data && task === 'generation' && <PublicSourceControl api={api} source={publicSource.data} datasets={datasets.data ?? []} onChanged={() => (publicSource.reload(), edited())} />}
        />
        {job.error && <Alert severity="error">{job.error}</Alert>}
        {priced && <AskPlanSummary plan={priced.plan} />}
        <RunningJob job={job} label="answering progress">
          {(running) => <AskProgress api={api} jobId={running.id} />}
        </RunningJob>
      </Section>
      {runs.current.data && (
        <Section title="Answers">
          <AnswersView api={api} run={runs.current.data} />
        </Section>
      )}
      <Section title="Runs">
        {runs.list.data && runs.list.data.length > 0 ? (
          <List dense aria-label="answering runs">
            {runs.list.data.map((r) => (
              <ListItemButton key={r.id} selected={r.id === runs.selected} onClick={() => runs.select(r.id)}>
                <ListItemText primary={`Run ${r.id} · ${r.dataset} · ${r.aggregation} · ${r.queries} queries · ε = ${r.epsilon}`} secondary={`${r.status} · ${new Date(r.createdAt).toLocaleString()}`} />
              </ListItemButton>
            ))}
          </List>
        ) : (
          <Typography variant="body2">No runs yet.</Typography>
        )}
      </Section>
      <CertificateVerifier api={api} label="Exported DP prompt or DP answers (JSON)" />
    </PageFrame>
  );
}

export default function AskPage() {
  return connection.api ? <AskView api={connection.api} /> : null;
}
