/**
 * Chart data and wording for a plan: the ε(δ) privacy curve, ε against the number of
 * queries (answering vs the flat line of one synthetic prompt) and the break-even point.
 * The text versions double as the charts' accessible descriptions.
 */
import type { PlanResult } from '../../../../electron/shared/api/planner';
import { formatDelta, formatEpsilon } from './ledgerView';

/** Points a log-scaled chart can draw (δ > 0, finite ε), by increasing δ. */
export function privacyCurvePoints(result: PlanResult): { delta: number; epsilon: number }[] {
  return result.privacyCurve.filter((p) => p.delta > 0 && Number.isFinite(p.epsilon)).sort((a, b) => a.delta - b.delta);
}

export function queryCurvePoints(result: PlanResult): PlanResult['queryCurve'] {
  return result.queryCurve.filter((p) => p.queries > 0 && Number.isFinite(p.answering)).sort((a, b) => a.queries - b.queries);
}

export function privacyCurveDescription(result: PlanResult): string {
  const points = privacyCurvePoints(result);
  if (points.length === 0) return 'No ε(δ) curve for this plan.';
  const first = points[0];
  const last = points.at(-1)!;
  return `ε of the plan falls from ${formatEpsilon(first.epsilon)} at δ = ${formatDelta(first.delta)} to ${formatEpsilon(last.epsilon)} at δ = ${formatDelta(last.delta)}; at the plan's δ = ${formatDelta(result.delta)} it is ${formatEpsilon(result.epsilon.upper)}.`;
}

/** Where a one-time synthetic prompt becomes cheaper than answering every query privately. */
export function breakEvenExplanation(result: PlanResult): string {
  const { queries, synthEpsilon, basis } = result.breakEven;
  const prompt = `one synthetic prompt (ε = ${formatEpsilon(synthEpsilon)}, paid once and reused for every query)`;
  if (queries === null) return `Answering privately stays cheaper than ${prompt} for every number of queries searched. ${basis}`;
  return `Break-even at ${queries.toLocaleString('en-US')} ${queries === 1 ? 'query' : 'queries'}: from there on, answering privately costs more than ${prompt}. ${basis}`;
}

export function queryCurveDescription(result: PlanResult): string {
  const points = queryCurvePoints(result);
  if (points.length === 0) return 'No query curve for this plan.';
  const last = points.at(-1)!;
  return `Answering ε grows from ${formatEpsilon(points[0].answering)} at ${points[0].queries.toLocaleString('en-US')} query to ${formatEpsilon(last.answering)} at ${last.queries.toLocaleString('en-US')} queries; the synthetic prompt stays at ${formatEpsilon(result.breakEven.synthEpsilon)}.`;
}

/** Calibrated noise in words. */
export function noiseText(noise: PlanResult['noise']): string {
  if (noise.kind === 'sga') {
    return `private clustering: ε = ${formatEpsilon(noise.levelEpsilon)} per level of splits, Gaussian σ = ${formatEpsilon(noise.sigmaCount)} on counts and ${formatEpsilon(noise.sigmaSum)} on sums (ρ = ${formatEpsilon(noise.rho)})`;
  }
  return noise.kind === 'gaussian'
    ? `Gaussian σ = ${formatEpsilon(noise.sigma)} (noise multiplier σ/Δ = ${formatEpsilon(noise.multiplier)})`
    : `ε = ${formatEpsilon(noise.epsilonPerStep)} per token step or query (exponential-type mechanism)`;
}

export function samplingText(rates: PlanResult['samplingRates']): string {
  if (rates.length === 0) return '—';
  return rates.map((r) => `${r.pool}: q = ${formatEpsilon(r.q)} of ${r.units.toLocaleString('en-US')} units`).join('; ');
}
