/**
 * "Rescan PII": rescans every record of the dataset with the current detectors as a job
 * (`vault.scanPii`). A dialog follows it — progress and Cancel, then a summary: records
 * scanned, records changed and the records with each kind of finding; a failure shows its
 * error with Retry. The rescan is all or nothing, so a cancelled or failed one changed nothing.
 */
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import type { JobRecord } from '../../../../electron/shared/api/jobs';
import { piiRescanReportSchema, type DatasetDto, type PiiRescanReport } from '../../../../electron/shared/api/vault';
import type { VeilApi } from '../../../../electron/shared/contract';
import { formatCount } from '../../components/format';
import { JobProgressBar } from '../../components/JobProgressBar';
import { jobResult } from '../../components/jobView';
import { KeyValueTable } from '../../components/KeyValueTable';
import { RetryAlert } from '../../components/RetryAlert';
import { useAsyncAction } from '../../components/useAsyncAction';
import { useTrackedJob } from '../../components/useTrackedJob';
import { rescanProgressText, rescanSummary } from './piiRescan';

function RescanReport({ report }: { report: PiiRescanReport }) {
  return (
    <Box role="region" aria-label="PII rescan summary">
      <Alert severity="success">{rescanSummary(report)}</Alert>
      {report.pii.length === 0 ? (
        <Typography variant="body2" sx={{ mt: 1 }}>
          No personal data found.
        </Typography>
      ) : (
        <KeyValueTable label="records with each kind of PII" rows={report.pii.map((p) => [p.kind, formatCount(p.records)])} />
      )}
    </Box>
  );
}

function Outcome({ record, onRetry }: { record: JobRecord; onRetry: () => void }) {
  const report = jobResult(piiRescanReportSchema, record);
  if (report) return <RescanReport report={report} />;
  if (record.status === 'succeeded') return <Alert severity="warning">The rescan finished, but its report could not be read; the charts show the findings now.</Alert>;
  if (record.status === 'cancelled')
    return (
      <Alert severity="info" action={<Button onClick={onRetry}>Rescan again</Button>}>
        The rescan was cancelled; no record was changed.
      </Alert>
    );
  return <RetryAlert what="rescan the PII (no record was changed)" error={record.error ?? `the rescan ${record.status}`} onRetry={onRetry} />;
}

export function PiiRescanAction({ api, dataset, onRescanned }: { api: VeilApi; dataset: DatasetDto; onRescanned: () => void }) {
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const starting = useAsyncAction();
  const cancelling = useAsyncAction();
  const { job, track } = useTrackedJob(api, (record) => record.status === 'succeeded' && onRescanned());
  const running = starting.busy || (job !== null && !job.finished);
  // Tracked inside the action, so that no previous rescan shows while a new one starts.
  const start = () => (setOpen(true), void starting.run(async () => track((await api['vault.scanPii']({ dataset: dataset.id })).jobId)));
  const cancel = () => running && job && !starting.busy && void cancelling.run(() => api['jobs.cancel']({ id: job.id }));
  const shown = starting.busy ? { id: '' } : starting.error ? null : job;

  return (
    <>
      {/* Never disabled: the modal dialog covers it while a rescan runs, and focus returns to it on close. */}
      <Button onClick={start}>Rescan PII</Button>
      <Dialog open={open} onClose={running ? undefined : () => setOpen(false)} maxWidth="sm" fullWidth aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Rescan PII in {dataset.name}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Typography variant="body2">Every record is scanned again with the current detectors; records whose findings change get the new findings and a history entry.</Typography>
            <RetryAlert what="start the rescan" error={starting.error} onRetry={start} />
            {shown && <JobProgressBar job={shown} what="Rescan" describe={rescanProgressText} />}
            {shown?.finished && <Outcome record={shown.finished} onRetry={start} />}
            {cancelling.error && <Alert severity="error">Could not cancel: {cancelling.error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          {/* Keyed apart, so that each takes the focus when it appears. */}
          {running ? (
            <Button key="cancel" color="warning" autoFocus disabled={cancelling.busy} onClick={cancel}>
              Cancel rescan
            </Button>
          ) : (
            <Button key="close" autoFocus onClick={() => setOpen(false)}>
              Close
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
