/**
 * A page's priced job (Synthesize, Ask, Augment): read the form (its errors shown under the
 * fields), price its request (usePricedPlan), start exactly the priced request, follow the job
 * it starts (useTrackedJob) and cancel it (useJobCancel). Pricing and starting share one busy flag
 * and error; cancelling has its own, so "Cancelling…" shows on Cancel and a refused cancel shows apart.
 */
import { useState } from 'react';
import type { VeilApi } from '../../../electron/shared/contract';
import { useAsyncAction } from './useAsyncAction';
import { useJobCancel, type JobCancel } from './useJobCancel';
import { usePricedPlan, type Priced } from './usePricedPlan';
import type { Runs } from './useRuns';
import { useTrackedJob, type TrackedJob } from './useTrackedJob';

/** A form read into a request, or the message under each field that is wrong. */
export type Checked<Request, Errors> = { ok: true; request: Request } | { ok: false; errors: Errors };

interface Options<Request, Plan, Errors> {
  /** Reads the form as it is now. */
  read: () => Checked<Request, Errors>;
  price: (request: Request) => Promise<Plan>;
  /** Starts the job; the service answers with the job to follow and the run it writes. */
  start: (request: Request) => Promise<{ jobId: string; runId: number }>;
  /** The runs the job writes: its run shown once started, read again once the job has ended. */
  runs: Pick<Runs<unknown, unknown>, 'show' | 'refresh'>;
}

export interface PricedJob<Request, Plan, Errors> extends JobCancel {
  /** The price shown, bound to the request it priced; null before a price and after any edit. */
  priced: Priced<Request, Plan> | null;
  /** The form changed: the shown price, and any on its way, no longer apply. */
  edited: () => void;
  /** The messages under the fields, from the last check. */
  errors: Partial<Errors>;
  /** Reads the form, shows its errors (none when it is valid) and returns its request, or null. */
  check: () => Request | null;
  /** Checks the form and prices its request when it is valid; nothing is charged. */
  price: () => void;
  /** Starts the priced request (one ledger reservation) and follows the job. */
  begin: () => Promise<void>;
  /** Pricing or starting, or a job running: the form waits. */
  busy: boolean;
  /** Why pricing or starting failed, in the service's words. */
  error: string | null;
  /** The job while it runs; null before the first and once it has ended. */
  running: TrackedJob | null;
}

export function usePricedJob<Request, Plan, Errors>(api: VeilApi, options: Options<Request, Plan, Errors>): PricedJob<Request, Plan, Errors> {
  const [errors, setErrors] = useState<Partial<Errors>>({});
  const action = useAsyncAction();
  const { priced, edited, submit, start } = usePricedPlan<Request, Plan>(options.price, action.run);
  const { job, track } = useTrackedJob(api, options.runs.refresh);
  const running = job !== null && !job.finished ? job : null;
  const jobCancel = useJobCancel(api, running);

  const check = () => {
    const form = options.read();
    setErrors(form.ok ? {} : form.errors);
    return form.ok ? form.request : null;
  };
  const price = () => {
    const request = check();
    if (request !== null) void submit(request);
  };
  const begin = async () => {
    const started = await start(options.start);
    if (!started) return;
    track(started.jobId);
    options.runs.show(started.runId);
  };

  return {
    priced,
    edited,
    errors,
    check,
    price,
    begin,
    busy: action.busy || running !== null,
    error: action.error,
    running,
    ...jobCancel,
  };
}
