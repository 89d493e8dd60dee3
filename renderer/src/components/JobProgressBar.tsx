/**
 * A tracked job's progress bar with a line of status under it: indeterminate until the first
 * progress event, then the share done; full (red unless it succeeded) once the job has ended.
 */
import { Box, LinearProgress, Typography } from '@mui/material';
import type { JobProgress } from '../../../electron/shared/api/jobs';
import { jobPercent } from './jobView';
import type { TrackedJob } from './useTrackedJob';

interface Props {
  job: TrackedJob;
  /** What the job does, capitalised: "Import" gives "Import progress" and "Import succeeded". */
  what: string;
  /** The status line while it runs; default: the job's own message. */
  describe?: (progress: Omit<JobProgress, 'jobId'>) => string;
}

export function JobProgressBar({ job, what, describe }: Props) {
  const { progress, finished } = job;
  const percent = jobPercent(progress);
  const running = !finished;
  const line = finished ? `${what} ${finished.status}` : progress && describe ? describe(progress) : (progress?.message ?? 'Starting…');
  return (
    <Box>
      <LinearProgress
        aria-label={`${what} progress`}
        variant={percent === null && running ? 'indeterminate' : 'determinate'}
        value={finished ? 100 : (percent ?? 0)}
        color={finished && finished.status !== 'succeeded' ? 'error' : 'primary'}
      />
      <Typography variant="caption" color="text.secondary">
        {line}
        {running && percent !== null && ` — ${percent} %`}
      </Typography>
    </Box>
  );
}
