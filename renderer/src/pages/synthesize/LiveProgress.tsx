/** A running job's progress: token steps against the charged maximum, demonstrations, the text being written (RunningJob adds Cancel). */
import { Box, LinearProgress, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { synthesisProgressSchema } from '../../../../electron/shared/api/synthesis';
import type { VeilApi } from '../../../../electron/shared/contract';

type Progress = z.infer<typeof synthesisProgressSchema>;

export function LiveProgress({ api, jobId }: { api: VeilApi; jobId: string }) {
  const [progress, setProgress] = useState<Progress | null>(null);
  useEffect(() => api.on('synth.progress', (p) => p.jobId === jobId && setProgress(p)), [api, jobId]);
  const percent = progress ? (100 * progress.stepsDone) / Math.max(progress.stepsMax, 1) : 0;
  return (
    <>
      <LinearProgress variant={progress ? 'determinate' : 'indeterminate'} value={percent} aria-label="token steps" />
      <Typography variant="body2">
        {progress
          ? `Demonstration ${Math.min(progress.demonstrationsDone + 1, progress.demonstrationsTotal)} of ${progress.demonstrationsTotal} · ${progress.stepsDone} of at most ${progress.stepsMax} token steps`
          : 'Reserving the budget and starting…'}
      </Typography>
      {progress && (
        <Box component="pre" aria-label="text being generated" sx={{ m: 0, p: 1, bgcolor: 'action.hover', whiteSpace: 'pre-wrap', fontSize: 13 }}>
          {progress.current.label ? `[${progress.current.label}] ` : ''}
          {progress.current.text}
        </Box>
      )}
    </>
  );
}
