/** A running batch: queries answered, the teacher being asked, Cancel (the reservation stays charged). */
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import type { AnswerProgress } from '../../../../electron/shared/api/answering';
import type { VeilApi } from '../../../../electron/shared/contract';

export function AskProgress({ api, jobId, onCancel }: { api: VeilApi; jobId: string; onCancel: () => void }) {
  const [progress, setProgress] = useState<AnswerProgress | null>(null);
  useEffect(() => api.on('ask.progress', (p) => p.jobId === jobId && setProgress(p)), [api, jobId]);
  return (
    <Stack spacing={1} role="group" aria-label="answering progress">
      <LinearProgress variant={progress ? 'determinate' : 'indeterminate'} value={progress ? (100 * progress.queriesDone) / Math.max(progress.queriesTotal, 1) : 0} aria-label="queries answered" />
      <Typography variant="body2">
        {progress ? `${progress.queriesDone} of ${progress.queriesTotal} queries answered · teacher ${progress.teachersDone} of ${progress.teachersTotal}` : 'Reserving the budget and starting…'}
      </Typography>
      <Box>
        <Button variant="outlined" color="warning" onClick={onCancel}>
          Cancel (the reserved budget stays spent)
        </Button>
      </Box>
    </Stack>
  );
}
