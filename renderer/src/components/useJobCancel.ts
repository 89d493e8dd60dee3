/**
 * Cancel for a running job (RunningJob's button): "Cancelling…" while the service answers, and a
 * refused cancel's message. Both belong to the job that was cancelled: once it has ended (a refusal
 * such as "job-1 is not running" may race that end), neither shows beside the next job.
 */
import { useState } from 'react';
import type { VeilApi } from '../../../electron/shared/contract';
import { useAsyncAction } from './useAsyncAction';
import type { TrackedJob } from './useTrackedJob';

export interface JobCancel {
  /** Asks the service to cancel the running job. */
  cancel: () => void;
  cancelling: boolean;
  /** Why the service refused to cancel the running job. */
  cancelError: string | null;
}

export function useJobCancel(api: VeilApi, running: TrackedJob | null): JobCancel {
  const { busy, error, run } = useAsyncAction();
  const [cancelledId, setCancelledId] = useState<string | null>(null);
  const ours = running !== null && running.id === cancelledId;
  const cancel = () => {
    if (!running) return;
    setCancelledId(running.id);
    void run(() => api['jobs.cancel']({ id: running.id }));
  };
  return { cancel, cancelling: ours && busy, cancelError: ours ? error : null };
}
