/**
 * A page's running job (usePricedJob, or useTrackedJob with useJobCancel): what it has done so far,
 * given by the page, and Cancel, in a group named `label`; a refused cancel shows under it.
 * The start button is disabled as the job starts, which drops the focus: it moves to the group
 * (not onto Cancel, which a second Enter would press).
 */
import { Alert, Box, Button, Stack } from '@mui/material';
import { useEffect, useRef, type ReactNode } from 'react';
import type { JobCancel } from './useJobCancel';
import type { TrackedJob } from './useTrackedJob';

interface Props {
  job: JobCancel & { running: TrackedJob | null };
  /** The group's accessible name, e.g. "generation progress". */
  label: string;
  /** The Cancel button's text; the default is for a job that charged the ledger. */
  cancelLabel?: string;
  /** The job's progress: a bar and a line. */
  children: (job: TrackedJob) => ReactNode;
}

export function RunningJob({ job, label, cancelLabel = 'Cancel (the reserved budget stays spent)', children }: Props) {
  return (
    <>
      {job.running && (
        <ProgressGroup key={job.running.id} label={label} cancelLabel={cancelLabel} cancelling={job.cancelling} onCancel={job.cancel}>
          {children(job.running)}
        </ProgressGroup>
      )}
      {job.cancelError && <Alert severity="error">{job.cancelError}</Alert>}
    </>
  );
}

interface GroupProps {
  label: string;
  cancelLabel: string;
  cancelling: boolean;
  onCancel: () => void;
  children: ReactNode;
}

function ProgressGroup({ label, cancelLabel, cancelling, onCancel, children }: GroupProps) {
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => group.current?.focus(), []);
  return (
    <Stack spacing={1} role="group" aria-label={label} ref={group} tabIndex={-1} sx={{ outline: 'none' }}>
      {children}
      <Box>
        <Button variant="outlined" color="warning" disabled={cancelling} onClick={onCancel}>
          {cancelling ? 'Cancelling…' : cancelLabel}
        </Button>
      </Box>
    </Stack>
  );
}
