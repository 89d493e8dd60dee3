/**
 * The planner's calibration: the noise of a workload (a synthetic-prompt job, or Q privately
 * answered queries) for a target (ε, δ) on a dataset, and what the rest of the plan builds
 * on — the event, the noise in the mechanism's terms, the sampling rates, one answered query
 * at the same noise per step, and the other workload it is compared with. The headline
 * (computePlan.ts) and the details (planDetails.ts) both start from one `PricedPlan`, so a
 * plan is calibrated once (plannerHandlers.ts keeps them). `synth.plan` and the synthesis job
 * calibrate the same event family (synthesisFamily) with the same deterministic function, so
 * a plan prices exactly what a job charges: a synthetic prompt's `event` is both of its
 * ledger entries, Sequence[noisy pool sizes, job].
 */
import type { AccountingResult } from '../../../core/accounting';
import type { PrivacyEvent } from '../../../core/accounting/events';
import { defaultDelta } from '../../../core/accounting/defaultDelta';
import { samplingRate } from '../../../core/icl/demonstration';
import { SUM_L2_SENSITIVITY } from '../../../core/icl/dpFewShot';
import { aggregationL2Sensitivity, answeringEvent, answeringRate, EMBEDDING_L2_SENSITIVITY, isGaussianAggregation, queryEvent, VOTE_L2_SENSITIVITY } from '../../../core/planning/answering';
import { DEFAULT_SGA_DEPTH, sgaNoise } from '../../../core/planning/sgaEvent';
import { synthWorkloadSchema, type PlanRequest, type PlanResult } from '../../shared/api/planner';
import type { SynthesisRequest } from '../../shared/api/synthesis';
import { RefusalError } from '../refusalError';
import type { BudgetState, SynthesisFamily } from '../synthesis/synthesisPricing';
import { synthesisFamily } from '../synthesis/synthesisPricing';
import type { SynthesisDataset } from '../synthesis/synthesisSource';
import { calibrateTwoStageDetailed } from './fastAccounting';
import type { StepCosts } from './samplingComparison';

export type SynthWorkload = Extract<PlanRequest['workload'], { kind: 'synth' }>;
export type AnswerWorkload = Extract<PlanRequest['workload'], { kind: 'answer' }>;

const CALIBRATION_TOLERANCE = 1e-3;

export interface PlanInputs {
  dataset: SynthesisDataset;
  poolUnits: ReadonlyMap<string | undefined, number>;
  /** Privacy units N of the whole private split. */
  units: number;
  budget: BudgetState | null;
  /** Measured step costs of the active model (for the sampling modes' time estimates). */
  stepCosts?: StepCosts | null;
}

export interface PricedPlan {
  delta: number;
  /** The calibrated parameter: σ (Gaussian), ε per step (exponential, keyword) or ρ (sga). */
  parameter: number;
  event: PrivacyEvent;
  /** The default accountant's ε of `event` (from the calibration; no RDP cross-check yet). */
  account: AccountingResult;
  noise: PlanResult['noise'];
  samplingRates: PlanResult['samplingRates'];
  /** One answered query at the same noise per step. */
  query: PrivacyEvent;
  /** The synthetic prompt and the answering workload compared (one of them is the plan's). */
  synth: SynthWorkload;
  answering: AnswerWorkload;
  /** Synthesis workloads: the calibrated family (its pools and shape). */
  family?: SynthesisFamily;
}

/** A dataset whose private split is empty has nothing to plan. */
export function assertPlannable(inputs: PlanInputs): void {
  if (inputs.units <= 0) throw new RefusalError(`the private split of "${inputs.dataset.name}" is empty: nothing to plan`);
}

/** The δ of a plan: the request's, else the budget's, else defaultDelta(N). */
export function planDelta(request: PlanRequest, inputs: PlanInputs): number {
  return request.delta ?? inputs.budget?.delta ?? defaultDelta(inputs.units);
}

export function synthRequest(request: PlanRequest, w: SynthWorkload): SynthesisRequest {
  return {
    dataset: request.dataset, epsilon: request.epsilon, delta: request.delta, maxExampleChars: 400,
    method: w.method, shots: w.shots, teachers: w.teachers, perTeacher: w.perTeacher, topK: w.topK, maxTokens: w.maxTokens, rounds: w.rounds,
    sampling: w.sampling,
  };
}

/** σ of the mechanism per unit of noise multiplier, for each Gaussian synthesis method. */
export const synthSensitivity = (w: SynthWorkload) => (w.method === 'dp-few-shot-gaussian' ? SUM_L2_SENSITIVITY : 1);

/**
 * An answering workload's noise per step at parameter p, as the compared synthetic prompt takes it:
 * a Gaussian noise multiplier (vote, embedding; sga: its answer sums' σ / 2, the embedding sum's
 * sensitivity) or an ε per step (keyword).
 */
export function answerStepNoise(w: AnswerWorkload, p: number): { gaussian: boolean; perStep: number } {
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
 * a prompt nobody can generate is no alternative — and the break-even's basis says so.
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

/** Calibrate the request's workload and describe what the plan builds on. */
export function pricePlan(request: PlanRequest, inputs: PlanInputs): PricedPlan {
  const { dataset, poolUnits, units } = inputs;
  assertPlannable(inputs);
  const delta = planDelta(request, inputs);
  const fit = (family: (p: number) => PrivacyEvent, decreasing: boolean) =>
    calibrateTwoStageDetailed({ family, target: { epsilon: request.epsilon, delta }, decreasing, tolerance: CALIBRATION_TOLERANCE });
  const w = request.workload;
  if (w.kind === 'synth') {
    const family = synthesisFamily(synthRequest(request, w), dataset, poolUnits);
    const { parameter: p, account } = fit(family.eventAt, !family.exponential);
    const answering = comparedAnswering(w);
    // Same noise per step: the same σ multiplier (Gaussian), or the same ε per step (exponential).
    const perStep = family.exponential ? p : p / synthSensitivity(w);
    return {
      delta,
      parameter: p,
      event: family.eventAt(p),
      account,
      noise: family.exponential ? { kind: 'pure', epsilonPerStep: p } : { kind: 'gaussian', sigma: p, multiplier: p / synthSensitivity(w) },
      samplingRates: family.pools.map((pool) => ({ pool: pool.label ?? '(all)', units: pool.units, q: samplingRate(family.shape, pool.units) })),
      query: queryEvent(answering, units, isGaussianAggregation(answering.aggregation) ? perStep * VOTE_L2_SENSITIVITY : perStep),
      synth: w,
      answering,
      family,
    };
  }
  const { parameter: p, account } = fit((x) => answeringEvent(w, units, x, w.queries), isGaussianAggregation(w.aggregation));
  return {
    delta,
    parameter: p,
    event: answeringEvent(w, units, p, w.queries),
    account,
    noise: answerNoise(w, p),
    samplingRates: [{ pool: '(all)', units, q: answeringRate(w, units) }],
    query: queryEvent(w, units, p),
    synth: comparedSynth(w),
    answering: w,
  };
}
