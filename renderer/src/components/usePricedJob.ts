/**
 * A page's priced job (Synthesize, Ask, Augment): price the settings (usePricedPlan), start
 * exactly the priced request, follow the job it starts (useTrackedJob) and cancel it. Pricing and
 * starting share one busy flag and error; cancelling has its own, so "Cancelling…" shows on the
 * Cancel button and a refused cancel is shown apart from the form's errors.
 */
import type { VeilApi } from '../../../electron/shared/contract';
import { useAsyncAction } from './useAsyncAction';
import { usePricedPlan } from './usePricedPlan';
import { useTrackedJob, type TrackedJob } from './useTrackedJob';

export interface PricedJob<Request, Plan> extends Omit<ReturnType<typeof usePricedPlan<Request, Plan>>, 'start'> {
  /** Pricing or starting, or a job running: the form waits. */
  busy: boolean;
  /** Why pricing or starting failed, in the service's words. */
  error: string | null;
  /** The job while it runs; null before the first and once it has ended. */
  running: TrackedJob | null;
  /** Starts the priced request and follows the job; undefined when nothing started (the error is shown). */
  begin: <Started extends { jobId: string }>(startJob: (request: Request) => Promise<Started>) => Promise<Started | undefined>;
  /** Asks the service to cancel the running job (its reservation stays charged). */
  cancel: () => void;
  cancelling: boolean;
  cancelError: string | null;
}

export function usePricedJob<Request, Plan>(api: VeilApi, price: (request: Request) => Promise<Plan>, onFinished: () => void): PricedJob<Request, Plan> {
  const action = useAsyncAction();
  const { start, ...pricing } = usePricedPlan<Request, Plan>(price, action.run);
  const { job, track } = useTrackedJob(api, onFinished);
  const cancelling = useAsyncAction();
  const running = job !== null && !job.finished ? job : null;

  const begin = async <Started extends { jobId: string }>(startJob: (request: Request) => Promise<Started>) => {
    const started = await start(startJob);
    if (started) track(started.jobId);
    return started;
  };
  const cancel = () => {
    if (running) void cancelling.run(() => api['jobs.cancel']({ id: running.id }));
  };

  return {
    ...pricing,
    busy: action.busy || running !== null,
    error: action.error,
    running,
    begin,
    cancel,
    cancelling: cancelling.busy,
    cancelError: cancelling.error,
  };
}
