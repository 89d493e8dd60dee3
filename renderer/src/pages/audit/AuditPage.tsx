/**
 * Audit page: membership-inference audits of prompts built from a dataset — choose targets
 * and attacks, run the audit as a job (progress, cancel), read the metrics and ROC curves,
 * the empirical ε beside the accounted ε, export the report, compare past audits.
 */
import { Alert, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import type { VeilApi } from '../../../../electron/shared/contract';
import { connection } from '../../api/client';
import { JobProgressBar } from '../../components/JobProgressBar';
import { PageFrame } from '../../components/PageFrame';
import { RunningJob } from '../../components/RunningJob';
import { Section } from '../../components/Section';
import { useApiQuery } from '../../components/useApiQuery';
import { useAsyncAction } from '../../components/useAsyncAction';
import { useJobCancel } from '../../components/useJobCancel';
import { useRuns } from '../../components/useRuns';
import { useTrackedJob } from '../../components/useTrackedJob';
import { ComparisonChart } from './AuditCharts';
import { AuditForm, initialAuditForm, toAuditRequest } from './AuditForm';
import { AuditResultView } from './AuditResultView';

export function AuditView({ api }: { api: VeilApi }) {
  const [form, setForm] = useState(initialAuditForm);
  const [formError, setFormError] = useState<string | null>(null);
  const { busy, error, run } = useAsyncAction();
  const datasets = useApiQuery(() => api['vault.listDatasets']({}), [api]);
  const runs = useApiQuery(() => api['synth.list']({}), [api]);
  const audits = useRuns({ list: () => api['audit.list']({}), get: (id) => api['audit.get']({ id }) }, [api]);
  const { job, track } = useTrackedJob(api, audits.refresh);
  const running = job !== null && !job.finished ? job : null;
  const jobCancel = useJobCancel(api, running);

  const start = async () => {
    const checked = toAuditRequest(form);
    setFormError('error' in checked ? checked.error : null);
    if ('error' in checked) return;
    const started = await run(() => api['audit.start'](checked.request));
    if (started) {
      track(started.jobId);
      audits.show(started.auditId);
    }
  };

  return (
    <PageFrame title="Membership-inference audit" maxWidth={1200}>
      <Typography variant="body2">
        An audit measures what an attacker gets from a prompt; the accountant’s ε bounds it from above. Audits read private records on this machine, are not charged to the ledger and release nothing: export a report only where the data itself may go.
      </Typography>
      <Section title="New audit">
        <AuditForm form={form} datasets={datasets.data ?? []} runs={runs.data ?? []} busy={busy || running !== null} onChange={setForm} onStart={() => void start()} />
        {formError && <Alert severity="warning">{formError}</Alert>}
        {error && <Alert severity="error">{error}</Alert>}
        <RunningJob job={{ running, ...jobCancel }} label="audit progress" cancelLabel="Cancel audit">
          {(audit) => <JobProgressBar job={audit} what="Audit" describe={(p) => `${p.stage}: ${p.done} of ${p.total}`} />}
        </RunningJob>
      </Section>
      {audits.current.data && (
        <Section title="Audit result">
          <AuditResultView api={api} audit={audits.current.data} />
        </Section>
      )}
      <Section title="Past audits">
        {audits.list.data && audits.list.data.length > 0 ? (
          <>
            <Table size="small" aria-label="past audits">
              <TableHead>
                <TableRow>
                  {['Audit', 'Dataset', 'Targets', 'Status', 'Started'].map((h) => (
                    <TableCell key={h}>{h}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {audits.list.data.map((a) => (
                  <TableRow key={a.id} hover selected={a.id === audits.selected} tabIndex={0} sx={{ cursor: 'pointer' }} onClick={() => audits.select(a.id)} onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && audits.select(a.id)}>
                    <TableCell>{a.id}</TableCell>
                    <TableCell>{a.dataset}</TableCell>
                    <TableCell>{a.request.targets.map((t) => t.name).join('; ')}</TableCell>
                    <TableCell>{a.status}</TableCell>
                    <TableCell>{new Date(a.createdAt).toLocaleString()}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <ComparisonChart audits={audits.list.data} />
          </>
        ) : (
          <Typography variant="body2">No audits yet.</Typography>
        )}
      </Section>
    </PageFrame>
  );
}

export default function AuditPage() {
  return connection.api ? <AuditView api={connection.api} /> : null;
}
