/**
 * "Utility against ε" (issue 17): the free preview on the public split (synth.previewCurve)
 * at a few ε, as a chart beside the zero-shot and constant-answer bars, with progress and
 * cancel. Charges nothing and reads no private record. Used on the Synthesize page and by
 * the planner ("what utility at this ε").
 */
import { Alert, Button, Stack, Typography } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { previewCurveSchema } from '../../../electron/shared/api/synthesisPreview';
import type { VeilApi } from '../../../electron/shared/contract';
import { Figure } from './Figure';
import { JobProgressBar } from './JobProgressBar';
import { useAsyncAction } from './useAsyncAction';
import { useTrackedJob } from './useTrackedJob';
import { curveDescription, type CurveRequest } from './utilityCurve';

interface Props {
  api: VeilApi;
  /** The settings (without ε) and the curve's ε, or null when the form has errors. */
  request: () => CurveRequest | null;
  disabled: boolean;
}

export function UtilityCurve({ api, request, disabled }: Props) {
  const { busy, error, run } = useAsyncAction();
  const { job, track } = useTrackedJob(api, () => undefined);
  const running = job !== null && !job.finished;
  const parsed = job?.finished?.status === 'succeeded' ? previewCurveSchema.safeParse(job.finished.result) : null;
  const start = async () => {
    const settings = request();
    const started = settings && (await run(() => api['synth.previewCurve'](settings)));
    if (started) track(started.jobId);
  };
  const curve = parsed?.success ? parsed.data : null;
  const flat = (value: number) => curve!.points.map(() => value);
  return (
    <Stack spacing={1} component="section" aria-label="utility against epsilon">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" disabled={disabled || busy || running} onClick={() => void start()}>
          {running ? 'Computing the curve…' : 'Utility against ε (free)'}
        </Button>
        {running && <Button onClick={() => void run(() => api['jobs.cancel']({ id: job.id }))}>Cancel curve</Button>}
        <Typography variant="body2" color="text.secondary">
          The public preview at several ε with these settings: what a larger ε buys. Charges nothing and reads no private record.
        </Typography>
      </Stack>
      {running && <JobProgressBar job={job} what="Utility curve" />}
      {job?.finished && job.finished.status !== 'succeeded' && <Alert severity={job.finished.status === 'cancelled' ? 'info' : 'error'}>Utility curve: {job.finished.error ?? job.finished.status}</Alert>}
      {parsed && !parsed.success && <Alert severity="error">Utility curve: unexpected result</Alert>}
      {curve && (
        <Figure title={`${curve.metric} against ε (preview on public data)`} description={curveDescription(curve)} sx={{ maxWidth: 560 }}>
          <LineChart
            height={240}
            skipAnimation
            xAxis={[{ data: curve.points.map((p) => p.epsilon), scaleType: 'log', label: 'ε (log scale)' }]}
            yAxis={[{ min: 0, max: 1, label: curve.metric }]}
            series={[
              { data: curve.points.map((p) => p.synthetic), label: 'DP prompt (preview)' },
              { data: flat(curve.points[0]?.zeroShot ?? 0), label: 'zero-shot', showMark: false },
              ...(curve.constant !== null ? [{ data: flat(curve.constant), label: 'constant answer', showMark: false }] : []),
            ]}
          />
        </Figure>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
