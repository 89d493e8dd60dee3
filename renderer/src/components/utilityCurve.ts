/** The utility-against-ε curve's request and its text description (UtilityCurve.tsx). */
import type { MethodInput } from '../../../electron/shared/contract';
import type { PlanRequest } from '../../../electron/shared/api/planner';
import { DEFAULT_CURVE_EPSILONS, type PreviewCurve } from '../../../electron/shared/api/synthesisPreview';

export type CurveRequest = MethodInput<'synth.previewCurve'>;

/** The curve's ε: the defaults (1, 2, 4, 8) and the ε being chosen, sorted, at most 8. */
export function curveEpsilons(chosen: number | null): number[] {
  const all = [...DEFAULT_CURVE_EPSILONS, ...(chosen !== null && chosen > 0 && chosen <= 100 ? [chosen] : [])];
  return [...new Set(all)].sort((a, b) => a - b).slice(0, 8);
}

/** The curve of a synthesis request's settings: its ε becomes one of the points. */
export function curveFromSynthesis({ epsilon, ...settings }: MethodInput<'synth.plan'>): CurveRequest {
  return { ...settings, epsilons: curveEpsilons(epsilon), limit: 200 };
}

/** The curve of the planner's synthetic-prompt workload (the planner's "what utility at this ε"). */
export function curveFromPlan(request: PlanRequest): CurveRequest | null {
  const w = request.workload;
  if (w.kind !== 'synth') return null;
  const { kind: _kind, ...shape } = w;
  return { dataset: request.dataset, delta: request.delta, ...shape, epsilons: curveEpsilons(request.epsilon), limit: 200 };
}

const fixed = (x: number) => x.toFixed(3);

/** One sentence per point, for screen readers and the caption. */
export function curveDescription(curve: PreviewCurve): string {
  const points = curve.points.map((p) => `ε = ${p.epsilon}: ${fixed(p.synthetic)}`).join('; ');
  const zeroShot = curve.points[0] ? ` Zero-shot ${fixed(curve.points[0].zeroShot)}` : '';
  const constant = curve.constant !== null ? `; a constant answer ${fixed(curve.constant)}` : '';
  return `${curve.metric} of the DP prompt previewed on the public split — ${points}.${zeroShot}${constant}. Nothing was charged.`;
}
