/** A running batch's progress: queries answered and the teacher being asked (RunningJob adds Cancel). */
import { LinearProgress, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import type { AnswerProgress } from '../../../../electron/shared/api/answering';
import type { VeilApi } from '../../../../electron/shared/contract';

export function AskProgress({ api, jobId }: { api: VeilApi; jobId: string }) {
  const [progress, setProgress] = useState<AnswerProgress | null>(null);
  useEffect(() => api.on('ask.progress', (p) => p.jobId === jobId && setProgress(p)), [api, jobId]);
  return (
    <>
      <LinearProgress variant={progress ? 'determinate' : 'indeterminate'} value={progress ? (100 * progress.queriesDone) / Math.max(progress.queriesTotal, 1) : 0} aria-label="queries answered" />
      <Typography variant="body2">
        {progress ? `${progress.queriesDone} of ${progress.queriesTotal} queries answered · teacher ${progress.teachersDone} of ${progress.teachersTotal}` : 'Reserving the budget and starting…'}
      </Typography>
    </>
  );
}
