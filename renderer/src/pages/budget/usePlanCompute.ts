/**
 * Price the planner's request as the analyst moves a slider: plan.compute runs in the
 * service process (off the UI thread), debounced by ~100 ms, one request at a time with
 * only the newest waiting (latestOnly.ts); an answer to a superseded request is dropped.
 * The last good result stays on screen while the next one computes or if it fails.
 */
import { useEffect, useState } from 'react';
import type { PlanRequest, PlanResult } from '../../../../electron/shared/api/planner';
import type { VeilApi } from '../../../../electron/shared/contract';
import { errorMessage } from '../../components/format';
import { LatestOnly } from './latestOnly';

export const PLAN_DEBOUNCE_MS = 100;

export interface PlanComputation {
  result: PlanResult | null;
  error: string | null;
  computing: boolean;
}

/** `refreshKey` recomputes an unchanged request (the ledger moved: the budget left changed). */
export function usePlanCompute(api: VeilApi, request: PlanRequest | null, refreshKey: unknown): PlanComputation {
  const [state, setState] = useState<PlanComputation>({ result: null, error: null, computing: false });
  const [runner] = useState(
    () =>
      new LatestOnly<PlanResult>((outcome) =>
        setState((s) => (outcome.ok ? { result: outcome.value, error: null, computing: false } : { ...s, error: errorMessage(outcome.error), computing: false })),
      ),
  );
  const key = request && JSON.stringify(request);

  useEffect(() => {
    runner.invalidate();
    if (key === null) {
      setState({ result: null, error: null, computing: false });
      return;
    }
    setState((s) => ({ ...s, computing: true }));
    const timer = setTimeout(() => runner.submit(() => api['plan.compute'](JSON.parse(key) as PlanRequest)), PLAN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, runner, key, refreshKey]);

  return state;
}
