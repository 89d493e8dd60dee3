/**
 * The budget planner's arithmetic: calibrate the noise of a workload (a synthetic-prompt
 * job, or Q privately answered queries) to a target (ε, δ) on a dataset, and describe it
 * — ε bounds (PLD, RDP cross-check), the ε(δ) curve, ε against the number of queries, the
 * break-even with the other workload at the same noise per step (core/planning/breakEven.ts),
 * and what the dataset's budget has left. `synth.plan` and the synthesis job calibrate the
 * same event family (synthesisFamily), so a plan prices exactly what a job charges: a
 * synthetic prompt's `event` is both of its ledger entries, Sequence[noisy pool sizes, job].
 */
import { accountEpsilon, type AccountingResult } from '../../../core/accounting';
import { composed, type PrivacyEvent } from '../../../core/accounting/events';
import { samplingRate } from '../../../core/icl/demonstration';
import { SUM_L2_SENSITIVITY } from '../../../core/icl/dpFewShot';
import { aggregationL2Sensitivity, answeringEvent, answeringRate, EMBEDDING_L2_SENSITIVITY, isGaussianAggregation, queryEvent, VOTE_L2_SENSITIVITY } from '../../../core/planning/answering';
import { DEFAULT_SGA_DEPTH, sgaNoise } from '../../../core/planning/sgaEvent';
import { BREAK_EVEN_LIMIT, breakEvenQueries, queryGrid, type ComposedEpsilon } from '../../../core/planning/breakEven';
import { largestWithinCap } from '../../../core/math/countSearch';
import { synthWorkloadSchema, type PlanRequest, type PlanResult } from '../../shared/api/planner';
import type { SynthesisRequest } from '../../shared/api/synthesis';
import { chargeEach, composeCharges, composedEpsilonUpper, curveDeltas, spendAfter } from '../ledger/ledgerAccounting';
import { rdpAdmits } from '../ledger/remaining';
import type { BudgetState } from '../synthesis/synthesisPricing';
import { synthesisFamily } from '../synthesis/synthesisPricing';
import type { SynthesisDataset } from '../synthesis/synthesisSource';
import { CountedEpsilon } from './countedEpsilon';
import { calibrateTwoStageDetailed, searchEpsilon, withCrossCheck } from './fastAccounting';
import { overCapWarning, planWarnings } from './planWarnings';
import { compareSamplingModes, type StepCosts } from './samplingComparison';
import { samplingModeSchema } from '../../shared/api/planner';
import { stepsPerDemonstration } from '../../../core/icl/demonstration';
import { writesOutput } from '../../../core/icl/synthesisPlan';
import { RefusalError } from '../refusalError';
import { defaultDelta } from '../../../core/accounting/defaultDelta';

type SynthWorkload = Extract<PlanRequest['workload'], { kind: 'synth' }>;
type AnswerWorkload = Extract<PlanRequest['workload'], { kind: 'answer' }>;

const CALIBRATION_TOLERANCE = 1e-3;
/** The query curve runs to twice the larger of the break-even and the planned queries. */
const CURVE_SPAN = 2;

export interface PlanInputs {
  dataset: SynthesisDataset;
  poolUnits: ReadonlyMap<string | undefined, number>;
  /** Privacy units N of the whole private split. */
  units: number;
  budget: BudgetState | null;
  /** Measured step costs of the active model (for the sampling modes' time estimates). */
  stepCosts?: StepCosts | null;
}

const synthRequest = (request: PlanRequest, w: SynthWorkload): SynthesisRequest => ({
  dataset: request.dataset, epsilon: request.epsilon, delta: request.delta, maxExampleChars: 400,
  method: w.method, shots: w.shots, teachers: w.teachers, perTeacher: w.perTeacher, topK: w.topK, maxTokens: w.maxTokens, rounds: w.rounds,
  sampling: w.sampling,
});

/** σ of the mechanism per unit of noise multiplier, for each Gaussian synthesis method. */
const synthSensitivity = (w: SynthWorkload) => (w.method === 'dp-few-shot-gaussian' ? SUM_L2_SENSITIVITY : 1);
/**
 * An answering workload's noise per step at parameter p, as the compared synthetic prompt takes it:
 * a Gaussian noise multiplier (vote, embedding; sga: its answer sums' σ / 2, the embedding sum's
 * sensitivity) or an ε per step (keyword).
 */
function answerStepNoise(w: AnswerWorkload, p: number): { gaussian: boolean; perStep: number } {
  if (w.aggregation === 'keyword') return { gaussian: false, perStep: p };
  if (w.aggregation === 'sga') return { gaussian: true, perStep: sgaNoise(p, w.sgaDepth ?? DEFAULT_SGA_DEPTH).sigmaSum / EMBEDDING_L2_SENSITIVITY };
  return { gaussian: true, perStep: p / aggregationL2Sensitivity(w.aggregation) };
}

function answerNoise(w: AnswerWorkload, p: number): PlanResult['noise'] {
  if (w.aggregation === 'keyword') return { kind: 'pure', epsilonPerStep: p };
  if (w.aggregation === 'sga') {
    const { levelEpsilon, sigmaCount, sigmaSum } = sgaNoise(p, w.sgaDepth ?? DEFAULT_SGA_DEPTH);
    return { kind: 'sga', rho: p, levelEpsilon, sigmaCount, sigmaSum };
  }
  return { kind: 'gaussian', sigma: p, multiplier: p / aggregationL2Sensitivity(w.aggregation) };
}

/** The other workload, shaped like this one (same teachers and examples per teacher, same noise family). */
function comparedAnswering(w: SynthWorkload): AnswerWorkload {
  return { kind: 'answer', ensemble: w.teachers, shots: w.perTeacher, queries: 1, aggregation: w.method === 'dp-few-shot-exponential' ? 'keyword' : 'vote' };
}
/**
 * The synthetic prompt an answering workload is compared with: its teachers mirror the
 * ensemble (M = ensemble, N = shots per teacher) up to what a synthesis job can run
 * (synthWorkloadSchema: M ≤ 200, N ≤ 50). Beyond those maxima the comparison is with the
 * largest prompt a job could actually produce — a larger ensemble cannot be mirrored, and
 * a prompt nobody can generate is no alternative — and `basis` says so.
 */
function comparedSynth(w: AnswerWorkload): SynthWorkload {
  const method = w.aggregation === 'keyword' ? 'dp-few-shot-exponential' : 'dp-few-shot-gaussian';
  const teachers = Math.min(w.ensemble, SYNTH_MAX.teachers);
  const perTeacher = Math.min(w.shots, SYNTH_MAX.perTeacher);
  return { kind: 'synth', method, shots: 4, teachers, perTeacher, topK: 100, maxTokens: 64, rounds: 2 };
}

/** Largest teachers M and examples per teacher N a synthesis job takes (the schema's maxima). */
const SYNTH_MAX = { teachers: maxOf(synthWorkloadSchema.shape.teachers), perTeacher: maxOf(synthWorkloadSchema.shape.perTeacher) };

function maxOf(field: { unwrap(): { maxValue: number | null } }): number {
  const max = field.unwrap().maxValue;
  if (max === null) throw new Error('synthWorkloadSchema: expected a maximum');
  return max;
}

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

interface Priced {
  event: PrivacyEvent;
  /** The default accountant's ε of `event` (from the calibration). */
  account: AccountingResult;
  noise: PlanResult['noise'];
  samplingRates: PlanResult['samplingRates'];
  /** One answered query at the same noise per step, and one synthetic prompt's ε. */
  query: PrivacyEvent;
  synthEpsilon: number;
  synth: SynthWorkload;
  answering: AnswerWorkload;
}

export function computePlan(request: PlanRequest, inputs: PlanInputs): PlanResult {
  const started = performance.now();
  const { dataset, poolUnits, units, budget } = inputs;
  if (units <= 0) throw new RefusalError(`the private split of "${dataset.name}" is empty: nothing to plan`);
  const delta = request.delta ?? budget?.delta ?? defaultDelta(units);
  const fit = (family: (p: number) => PrivacyEvent, decreasing: boolean) =>
    calibrateTwoStageDetailed({ family, target: { epsilon: request.epsilon, delta }, decreasing, tolerance: CALIBRATION_TOLERANCE });
  const synthAt = (w: SynthWorkload) => synthesisFamily(synthRequest(request, w), dataset, poolUnits);

  let priced: Priced;
  let samplingModes: PlanResult['samplingModes'];
  const w = request.workload;
  if (w.kind === 'synth') {
    const family = synthAt(w);
    const { parameter: p, account } = fit(family.eventAt, !family.exponential);
    const answering = comparedAnswering(w);
    // Same noise per step: the same σ multiplier (Gaussian), or the same ε per step (exponential).
    const perStep = family.exponential ? p : p / synthSensitivity(w);
    const generation = family.pools.some(writesOutput);
    samplingModes = compareSamplingModes({
      modes: samplingModeSchema.options.map((sampling) => ({ sampling, ...synthAt({ ...w, sampling }) })),
      planned: { sampling: w.sampling ?? 'per-token', parameter: p, epsilon: account.bounds.upper },
      calibrate: (m) => fit(m.eventAt, !m.exponential).parameter,
      delta,
      steps: stepsPerDemonstration(family.shape, generation),
      phases: generation ? 2 : 1,
      demonstrations: family.pools.reduce((s, pool) => s + pool.demonstrations, 0),
      costs: inputs.stepCosts ?? null,
    });
    priced = {
      event: family.eventAt(p),
      account,
      noise: family.exponential ? { kind: 'pure', epsilonPerStep: p } : { kind: 'gaussian', sigma: p, multiplier: p / synthSensitivity(w) },
      samplingRates: family.pools.map((pool) => ({ pool: pool.label ?? '(all)', units: pool.units, q: samplingRate(family.shape, pool.units) })),
      query: queryEvent(answering, units, isGaussianAggregation(answering.aggregation) ? perStep * VOTE_L2_SENSITIVITY : perStep),
      synthEpsilon: request.epsilon,
      synth: w,
      answering,
    };
  } else {
    const { parameter: p, account } = fit((x) => answeringEvent(w, units, x, w.queries), isGaussianAggregation(w.aggregation));
    const synth = comparedSynth(w);
    const { gaussian, perStep } = answerStepNoise(w, p);
    priced = {
      event: answeringEvent(w, units, p, w.queries),
      account,
      noise: answerNoise(w, p),
      samplingRates: [{ pool: '(all)', units, q: answeringRate(w, units) }],
      query: queryEvent(w, units, p),
      synthEpsilon: accountEpsilon(synthAt(synth).eventAt(gaussian ? perStep * synthSensitivity(synth) : perStep), delta, { crossCheck: false }).bounds.upper,
      synth,
      answering: w,
    };
  }

  // The headline: the calibration's own default-accountant answer, with RDP beside it.
  const account = withCrossCheck(priced.event, delta, priced.account);
  // Curves and searches: one discretisation per scale of the count, refined to 1 % (countedEpsilon.ts).
  const curveAt = curveDeltas(delta);
  const queries = new CountedEpsilon({ fixed: null, repeated: priced.query, deltas: w.kind === 'answer' ? curveAt : [delta], limit: BREAK_EVEN_LIMIT });
  const epsilonOf: ComposedEpsilon = (event, count) => (event === priced.query ? queries.at(count, delta) : searchEpsilon(count === 1 ? event : composed(event, count), delta));
  const breakEven = breakEvenQueries(priced.query, priced.synthEpsilon, epsilonOf);
  const planned = w.kind === 'answer' ? w.queries : 1;
  const grid = queryGrid(Math.min(BREAK_EVEN_LIMIT, CURVE_SPAN * Math.max(breakEven ?? 1_000, planned)));
  const queryCurve = queries.many(grid, delta);
  // ε(δ) of the plan: Q answered queries (the same compositions), or one synthetic prompt.
  const plan = w.kind === 'answer' ? queries : new CountedEpsilon({ fixed: null, repeated: priced.event, deltas: curveAt, limit: 1 });
  const privacyCurve = curveAt.map((d) => plan.at(planned, d));
  const spent = budget ? composedEpsilonUpper(chargeEach(budget.spent), budget.delta) : 0;
  const afterPlan = budget ? spendAfter(budget.spent, priced.event, budget.delta, spent) : 0;
  const remaining = budget ? remainingPlans(budget, priced.event, afterPlan) : null;
  return {
    request,
    delta,
    units,
    noise: priced.noise,
    samplingRates: priced.samplingRates,
    event: priced.event,
    epsilon: account.bounds,
    accountant: account.accountant,
    rdpEpsilon: account.rdp?.upper ?? null,
    privacyCurve: curveAt.map((d, i) => ({ delta: d, epsilon: privacyCurve[i] })),
    queryCurve: grid.map((count, i) => ({ queries: count, answering: queryCurve[i], synthetic: priced.synthEpsilon })),
    breakEven: {
      queries: breakEven,
      synthEpsilon: priced.synthEpsilon,
      query: priced.query,
      answering: { ...priced.answering, queries: breakEven ?? priced.answering.queries },
      synth: priced.synth,
      basis:
        breakEvenBasis(priced.noise, priced.answering) + clampNote(priced.synth, priced.answering),
    },
    budget: budget && remaining ? { cap: budget.cap, delta: budget.delta, spent, afterPlan, remainingRuns: remaining.count, remainingAtLimit: remaining.atLimit } : null,
    warnings: [
      ...planWarnings({ delta, units, epsilon: request.epsilon, rates: priced.samplingRates }),
      ...(budget && afterPlan > budget.cap ? [overCapWarning(afterPlan, budget.cap)] : []),
    ],
    seconds: (performance.now() - started) / 1000,
    ...(samplingModes && { samplingModes }),
  };
}

/**
 * Plans counted when saying what is left; beyond, the page says "at least 10,000". The count
 * composes the plan up to this many times on a fine PLD grid: 0.6 s at 10,000 and 7.6 s at
 * 1,000,000 for a 64-step synthesis event when RDP cannot settle it (rdpAdmits).
 */
const REMAINING_LIMIT = 10_000;

/**
 * How many more releases of `event` fit under the cap after what is spent (the ledger's
 * `remainingCount`, core/math/countSearch.ts), counted with certified upper bounds refined
 * to 1 %, from the one plan whose ε is already known.
 */
function remainingPlans(budget: BudgetState, event: PrivacyEvent, afterOne: number): { count: number; atLimit: boolean } {
  if (!(afterOne <= budget.cap)) return { count: 0, atLimit: false };
  if (rdpAdmits(budget.spent, event, REMAINING_LIMIT, budget.cap, budget.delta)) return { count: REMAINING_LIMIT, atLimit: true };
  const counts = new CountedEpsilon({ fixed: composeCharges(chargeEach(budget.spent)), repeated: event, deltas: [budget.delta], limit: REMAINING_LIMIT });
  const { count, atLimit } = largestWithinCap({ value: (n) => counts.at(n, budget.delta), cap: budget.cap, from: { n: 1, value: afterOne }, limit: REMAINING_LIMIT });
  return { count, atLimit };
}
