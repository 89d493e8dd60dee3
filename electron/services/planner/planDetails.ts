/**
 * What the analyst reads after the price (`plan.details`): the break-even with the other
 * workload at the same noise per step (core/planning/breakEven.ts), ε against the number of
 * queries, the plan's ε(δ) curve, and — for a synthetic prompt — both sampling modes side by
 * side. It starts from the headline's calibration (`PricedPlan`): nothing is calibrated
 * again with the default accountant. The other sampling mode's noise for the same target is
 * calibrated with the 1 % accountant (like the curves; `calibrateCoarse`): certified, and on
 * the safe side of what its own plan then finds by up to ~2 %.
 */
import { accountEpsilon } from '../../../core/accounting';
import { composed } from '../../../core/accounting/events';
import { stepsPerDemonstration } from '../../../core/icl/demonstration';
import { writesOutput } from '../../../core/icl/synthesisPlan';
import { BREAK_EVEN_LIMIT, breakEvenQueries, queryGrid, type ComposedEpsilon } from '../../../core/planning/breakEven';
import { samplingModeSchema, type PlanDetails, type PlanRequest, type PlanResult, type SamplingComparison } from '../../shared/api/planner';
import { curveDeltas } from '../ledger/ledgerAccounting';
import type { SynthesisFamily } from '../synthesis/synthesisPricing';
import { CountedEpsilon } from './countedEpsilon';
import { calibrateCoarse, searchEpsilon } from './fastAccounting';
import { answerStepNoise, synthRequest, synthSensitivity, type AnswerWorkload, type PlanInputs, type PricedPlan, type SynthWorkload } from './planPricing';
import { synthesisFamily } from '../synthesis/synthesisPricing';
import { compareSamplingModes } from './samplingComparison';

/** The query curve runs to twice the larger of the break-even and the planned queries. */
const CURVE_SPAN = 2;

/** What "the same noise per step" means for this comparison, in words. */
function breakEvenBasis(noise: PlanResult['noise'], answering: AnswerWorkload): string {
  if (noise.kind === 'pure') return `same ε = ${noise.epsilonPerStep.toPrecision(3)} per token step and per query`;
  if (noise.kind === 'sga') return `the Gaussian prompt at the noise multiplier of the clustering's answer sums, σ/Δ = ${answerStepNoise(answering, noise.rho).perStep.toPrecision(3)}`;
  return `same noise multiplier σ/Δ = ${noise.multiplier.toPrecision(3)} per token step and per query`;
}

/** Where the compared prompt could not mirror the ensemble, in words (empty when it does). */
function clampNote(synth: SynthWorkload, answering: AnswerWorkload): string {
  const notes = [
    ...(synth.teachers < answering.ensemble ? [`M = ${synth.teachers} teachers (the synthesis maximum) for the ensemble of ${answering.ensemble}`] : []),
    ...(synth.perTeacher < answering.shots ? [`N = ${synth.perTeacher} examples per teacher (the synthesis maximum) for ${answering.shots} shots`] : []),
  ];
  return notes.length === 0 ? '' : `; the compared prompt uses ${notes.join(' and ')}`;
}

/** ε of one synthetic prompt: the plan's target for a synthesis plan, else the compared prompt's at the same noise per step. */
function synthEpsilon(request: PlanRequest, inputs: PlanInputs, priced: PricedPlan): number {
  const w = request.workload;
  if (w.kind === 'synth') return request.epsilon;
  const { gaussian, perStep } = answerStepNoise(w, priced.parameter);
  const family = synthesisFamily(synthRequest(request, priced.synth), inputs.dataset, inputs.poolUnits);
  return accountEpsilon(family.eventAt(gaussian ? perStep * synthSensitivity(priced.synth) : perStep), priced.delta, { crossCheck: false }).bounds.upper;
}

/** Both sampling modes of a synthesis plan: each mode's noise for the same target, and its ε at the plan's noise. */
function samplingModes(request: PlanRequest, w: SynthWorkload, inputs: PlanInputs, priced: PricedPlan, family: SynthesisFamily): SamplingComparison {
  const generation = family.pools.some(writesOutput);
  const target = { epsilon: request.epsilon, delta: priced.delta };
  return compareSamplingModes({
    modes: samplingModeSchema.options.map((sampling) => ({ sampling, ...synthesisFamily(synthRequest(request, { ...w, sampling }), inputs.dataset, inputs.poolUnits) })),
    planned: { sampling: w.sampling ?? 'per-token', parameter: priced.parameter, epsilon: priced.account.bounds.upper },
    calibrate: (mode) => calibrateCoarse({ family: mode.eventAt, target, decreasing: !mode.exponential }).parameter,
    delta: priced.delta,
    steps: stepsPerDemonstration(family.shape, generation),
    phases: generation ? 2 : 1,
    demonstrations: family.pools.reduce((s, pool) => s + pool.demonstrations, 0),
    costs: inputs.stepCosts ?? null,
  });
}

export function planDetails(request: PlanRequest, inputs: PlanInputs, priced: PricedPlan): PlanDetails {
  const started = performance.now();
  const { delta } = priced;
  const w = request.workload;
  const promptEpsilon = synthEpsilon(request, inputs, priced);
  // Curves and searches: one discretisation per scale of the count, refined to 1 % (countedEpsilon.ts).
  const curveAt = curveDeltas(delta);
  const queries = new CountedEpsilon({ fixed: null, repeated: priced.query, deltas: w.kind === 'answer' ? curveAt : [delta], limit: BREAK_EVEN_LIMIT });
  const epsilonOf: ComposedEpsilon = (event, count) => (event === priced.query ? queries.at(count, delta) : searchEpsilon(count === 1 ? event : composed(event, count), delta));
  const breakEven = breakEvenQueries(priced.query, promptEpsilon, epsilonOf, (n) => queries.reach(n));
  const planned = w.kind === 'answer' ? w.queries : 1;
  const grid = queryGrid(Math.min(BREAK_EVEN_LIMIT, CURVE_SPAN * Math.max(breakEven ?? 1_000, planned)));
  const queryCurve = queries.many(grid, delta);
  // ε(δ) of the plan: Q answered queries (the same compositions), or one synthetic prompt.
  const plan = w.kind === 'answer' ? queries : new CountedEpsilon({ fixed: null, repeated: priced.event, deltas: curveAt, limit: 1 });
  const privacyCurve = curveAt.map((d) => plan.at(planned, d));
  const modes = w.kind === 'synth' && priced.family ? samplingModes(request, w, inputs, priced, priced.family) : undefined;
  return {
    request,
    event: priced.event,
    privacyCurve: curveAt.map((d, i) => ({ delta: d, epsilon: privacyCurve[i] })),
    queryCurve: grid.map((count, i) => ({ queries: count, answering: queryCurve[i], synthetic: promptEpsilon })),
    breakEven: {
      queries: breakEven,
      synthEpsilon: promptEpsilon,
      query: priced.query,
      answering: { ...priced.answering, queries: breakEven ?? priced.answering.queries },
      synth: priced.synth,
      basis: breakEvenBasis(priced.noise, priced.answering) + clampNote(priced.synth, priced.answering),
    },
    seconds: (performance.now() - started) / 1000,
    ...(modes && { samplingModes: modes }),
  };
}
