/**
 * Price the planner's request as the analyst moves a slider, in two requests run in the
 * service process (off the UI thread): `plan.headline` (noise, ε, budget left, warnings),
 * debounced by ~100 ms, then — once it is shown — `plan.details` (curves, break-even,
 * sampling modes) for the same request, which the service answers from the same calibration.
 * Each runs one request at a time with only the newest waiting (latestOnly.ts); a new request
 * invalidates both, so an answer to a superseded request — headline or details — is dropped.
 * The last good result stays on screen (marked busy) while the next one computes or if it
 * fails; details are only ever shown with the headline they were asked for.
 */
import { useEffect, useRef, useState } from 'react';
import type { PlanDetails, PlanHeadline, PlanRequest } from '../../../../electron/shared/api/planner';
import type { VeilApi } from '../../../../electron/shared/contract';
import { errorMessage } from '../../components/format';
import { LatestOnly } from './latestOnly';

export const PLAN_DEBOUNCE_MS = 100;

export interface PlanComputation {
  result: PlanHeadline | null;
  error: string | null;
  computing: boolean;
  /** The details and the headline they belong to (an earlier one while `detailsComputing`). */
  details: { headline: PlanHeadline; details: PlanDetails } | null;
  detailsError: string | null;
  detailsComputing: boolean;
}

const idle: PlanComputation = { result: null, error: null, computing: false, details: null, detailsError: null, detailsComputing: false };

/** `refreshKey` recomputes an unchanged request (the ledger moved: the budget left changed). */
export function usePlanCompute(api: VeilApi, request: PlanRequest | null, refreshKey: unknown): PlanComputation {
  const [state, setState] = useState<PlanComputation>(idle);
  const current = useRef(api);
  current.current = api;
  const [runners] = useState(() => {
    const details = new LatestOnly<{ headline: PlanHeadline; details: PlanDetails }>((outcome) =>
      setState((s) =>
        outcome.ok ? { ...s, details: outcome.value, detailsError: null, detailsComputing: false } : { ...s, detailsError: errorMessage(outcome.error), detailsComputing: false },
      ),
    );
    const headline = new LatestOnly<PlanHeadline>((outcome) => {
      if (!outcome.ok) return setState((s) => ({ ...s, error: errorMessage(outcome.error), computing: false }));
      const shown = outcome.value;
      setState((s) => ({ ...s, result: shown, error: null, computing: false, detailsError: null, detailsComputing: true }));
      details.submit(async () => ({ headline: shown, details: await current.current['plan.details'](shown.request) }));
    });
    return { headline, details };
  });
  const key = request && JSON.stringify(request);

  useEffect(() => {
    runners.headline.invalidate();
    runners.details.invalidate();
    if (key === null) {
      setState(idle);
      return;
    }
    setState((s) => ({ ...s, computing: true }));
    const timer = setTimeout(() => runners.headline.submit(() => api['plan.headline'](JSON.parse(key) as PlanRequest)), PLAN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, runners, key, refreshKey]);

  return state;
}
