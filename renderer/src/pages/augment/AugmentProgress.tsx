/** A running augmentation: the stage (embedding, writing example i of M) from the job's progress events, and Cancel (the reservation stays charged). */
import { Box, Button, Stack } from '@mui/material';
import { useEffect, useRef } from 'react';
import type { JobProgress } from '../../../../electron/shared/api/jobs';
import { JobProgressBar } from '../../components/JobProgressBar';
import type { TrackedJob } from '../../components/useTrackedJob';

const describe = (p: Omit<JobProgress, 'jobId'>) => (p.message ? `${p.stage}: ${p.message}` : `${p.stage} (${p.done} of ${p.total})`);

export function AugmentProgress({ job, cancelling, onCancel }: { job: TrackedJob; cancelling: boolean; onCancel: () => void }) {
  // Augment is disabled as the job starts, which drops the focus: it moves here (not onto Cancel, which a second Enter would press).
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => group.current?.focus(), []);
  return (
    <Stack spacing={1} role="group" aria-label="augmentation progress" ref={group} tabIndex={-1} sx={{ outline: 'none' }}>
      <JobProgressBar job={job} what="Augmentation" describe={describe} />
      <Box>
        <Button variant="outlined" color="warning" disabled={cancelling} onClick={onCancel}>
          {cancelling ? 'Cancelling…' : 'Cancel (the reserved budget stays spent)'}
        </Button>
      </Box>
    </Stack>
  );
}
