/**
 * The price shown for a job's settings, bound to the exact request it priced: any edit of the
 * form drops it, and a price that comes back after an edit is never shown (it priced settings
 * the form no longer holds). `start` sends the priced request, not the form's.
 */
import { useCallback, useRef, useState } from 'react';

export interface Priced<Request, Plan> {
  plan: Plan;
  request: Request;
}

type Run = <T>(action: () => Promise<T>) => Promise<T | undefined>;

export function usePricedPlan<Request, Plan>(price: (request: Request) => Promise<Plan>, run: Run) {
  const [priced, setPriced] = useState<Priced<Request, Plan> | null>(null);
  const edits = useRef(0);
  /** The form changed: the shown price, and any on its way, no longer apply. */
  const edited = useCallback(() => {
    edits.current++;
    setPriced(null);
  }, []);
  const submit = async (request: Request) => {
    const edit = edits.current;
    const plan = await run(() => price(request));
    if (plan !== undefined && edit === edits.current) setPriced({ plan, request });
  };
  /** Starts the job with exactly the priced request; once started, the price is spent and the next job is priced afresh. */
  const start = async <Started,>(begin: (request: Request) => Promise<Started>): Promise<Started | undefined> => {
    const request = priced?.request;
    const started = request === undefined ? undefined : await run(() => begin(request));
    if (started !== undefined) setPriced(null);
    return started;
  };
  return { priced, edited, submit, start };
}
