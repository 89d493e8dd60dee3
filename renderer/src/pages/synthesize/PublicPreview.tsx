/**
 * "Preview on public data": the job of the current settings run on the dataset's PUBLIC
 * split as if it were private (same noise), with its demonstrations and utility check.
 * Free: no ledger entry, no private record read (synth.preview).
 */
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { synthesisPreviewSchema, type SynthesisPreview } from '../../../../electron/shared/api/synthesisPreview';
import type { VeilApi } from '../../../../electron/shared/contract';
import { JobProgressBar } from '../../components/JobProgressBar';
import { useAsyncAction } from '../../components/useAsyncAction';
import { useTrackedJob } from '../../components/useTrackedJob';
import { DemonstrationsTable } from './DemonstrationsTable';
import type { Request } from './synthesisForm';
import { UtilityTable } from './UtilityTable';

const HELD_OUT = 200;

interface Props {
  api: VeilApi;
  /** The validated settings, or null (the form shows its errors). */
  request: () => Request | null;
  disabled: boolean;
}

export function PublicPreview({ api, request, disabled }: Props) {
  const { busy, error, run } = useAsyncAction();
  const { job, track } = useTrackedJob(api, () => undefined);
  const running = job !== null && !job.finished;
  const parsed = job?.finished?.status === 'succeeded' ? synthesisPreviewSchema.safeParse(job.finished.result) : null;
  const start = async () => {
    const settings = request();
    const started = settings && (await run(() => api['synth.preview']({ ...settings, limit: HELD_OUT })));
    if (started) track(started.jobId);
  };
  return (
    <Stack spacing={1} component="section" aria-label="preview on public data">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" disabled={disabled || busy || running} onClick={() => void start()}>
          {running ? 'Previewing…' : 'Preview on public data'}
        </Button>
        {running && <Button onClick={() => void run(() => api['jobs.cancel']({ id: job.id }))}>Cancel preview</Button>}
        <Typography variant="body2" color="text.secondary">
          Free: runs these settings on the public split as if it were private. Charges nothing and reads no private record.
        </Typography>
      </Stack>
      {running && <JobProgressBar job={job} what="Preview" />}
      {job?.finished && job.finished.status !== 'succeeded' && <Alert severity={job.finished.status === 'cancelled' ? 'info' : 'error'}>Preview: {job.finished.error ?? job.finished.status}</Alert>}
      {parsed && !parsed.success && <Alert severity="error">Preview: unexpected result</Alert>}
      {parsed?.success && <PreviewResult preview={parsed.data} />}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}

function PreviewResult({ preview }: { preview: SynthesisPreview }) {
  const { request, noise } = preview;
  const noiseText = noise.kind === 'gaussian' ? `σ = ${noise.sigma.toPrecision(4)}` : `ε per token = ${noise.epsilonPerToken.toPrecision(4)}`;
  return (
    <Box>
      <Typography variant="body2" data-testid="preview-summary">
        Preview of “{preview.dataset}” at ε = {request.epsilon} ({request.shots} shots, {noiseText}, as the job would use at δ = {preview.delta.toExponential(2)}) on{' '}
        {preview.pools.map((p) => `${p.units} public ${p.label ?? 'records'}`).join(', ')}: nothing was charged.
      </Typography>
      <DemonstrationsTable demonstrations={preview.demonstrations} />
      <UtilityTable utility={preview.utility} />
    </Box>
  );
}
