/**
 * Pricing a synthesis job: the pools (one per chosen public label — all by default — or
 * the whole private split), the aggregator for the chosen method with its noise calibrated
 * so that what the prompt costs in all has ε upper bound ≤ the requested total at δ, and the
 * warnings an analyst should see.
 *
 * Sizes (ARCHITECTURE §4): q = M·N/|pool| needs the pool sizes. A job releases them first —
 * discrete Laplace counts, neighbouring add/remove one privacy unit, ℓ1 sensitivity 1 per
 * record (the label pools partition the split) or the number of pools per subject, event
 * pure(0.1) — and charges that release as ITS OWN ledger entry before anything is priced or
 * refused from it (chargeSizeRelease, sizes/poolSizes.ts); then it is priced from the noisy
 * sizes and reserves only its token steps (`plan.event`, synthesisPlan.ts). What the prompt
 * costs in all, `plan.totalEvent` = Sequence[size release, job], is what the noise is
 * calibrated to and what the certificate states. Where the analyst declared the dataset's size
 * public, the exact sizes are used and nothing is charged for them. A preview (synth.plan, the
 * planner) uses the exact sizes, shown to the analyst only, with the same event family.
 */
import { accountEpsilon } from '../../../core/accounting';
import { sequence, type PrivacyEvent } from '../../../core/accounting/events';
import { POOL_SIZE_EPSILON, poolSizeEvent, poolSizeSource, type PoolSizeSource } from '../../../core/icl/noisyPoolSizes';
import { adaDpSynAggregator, defaultAdaDpSynParams } from '../../../core/icl/adaDpSyn';
import { samplingRate, type SynthesisShape } from '../../../core/icl/demonstration';
import { tangAggregator } from '../../../core/icl/dpFewShot';
import { defaultTemplate, type PromptTemplate } from '../../../core/icl/prompts';
import { jobEvent, spreadShots, type PoolPlan } from '../../../core/icl/synthesisPlan';
import type { TokenAggregator } from '../../../core/icl/tokenAggregator';
import type { SynthesisPlanDto, SynthesisRequest } from '../../shared/api/synthesis';
import { calibrateTwoStage } from '../planner/fastAccounting';
import { overCapWarning, planWarnings } from '../planner/planWarnings';
import type { SynthesisDataset } from './synthesisSource';
import { budgetAfter, type BudgetState } from '../ledger/releaseLedger';
import { RefusalError } from '../refusalError';
import { refuseBelowSizeRelease } from '../sizes/poolSizes';
import { defaultDelta } from '../../../core/accounting/defaultDelta';

/** Relative tolerance of the calibrated noise parameter. */
const CALIBRATION_TOLERANCE = 1e-3;

export interface PricedJob {
  plan: SynthesisPlanDto;
  aggregator: TokenAggregator;
  shape: SynthesisShape;
  pools: PoolPlan[];
  template: PromptTemplate;
  /** How the pool sizes were obtained (noisy, or declared public): stated in the certificate. */
  poolSizes: PoolSizeSource;
}

export type { BudgetState } from '../ledger/releaseLedger';

export function templateFor(dataset: SynthesisDataset, request: SynthesisRequest): PromptTemplate {
  const labels = dataset.labels.join(', ');
  const instruction =
    request.instruction ??
    (dataset.task === 'classification' ? `Classify each text as one of: ${labels}.` : `Write a text like the examples of "${dataset.name}".`);
  return { ...defaultTemplate(instruction), maxExampleChars: request.maxExampleChars };
}

/** The aggregator of `request.method` at noise parameter p (σ, or ε per token for the exponential variant). */
function aggregatorAt(request: SynthesisRequest, p: number): TokenAggregator {
  if (request.method === 'dp-few-shot-exponential') return tangAggregator({ kind: 'exponential', epsilon: p });
  if (request.method === 'adadpsyn') return adaDpSynAggregator({ ...defaultAdaDpSynParams(p), rounds: request.rounds });
  return tangAggregator({ kind: 'gaussian', sigma: p });
}

/** The public labels the demonstrations are spread over: the requested subset (in the set's order), else all. */
function demonstrationLabels(dataset: SynthesisDataset, requested: readonly string[] | undefined): string[] | undefined {
  if (dataset.task !== 'classification') {
    if (requested) throw new RefusalError(`dataset "${dataset.name}" is a generation task: it has no labels to choose`);
    return undefined;
  }
  if (dataset.labels.length === 0) throw new RefusalError(`dataset "${dataset.name}" has no public label set: declare its labels in the vault first`);
  const unknown = (requested ?? []).filter((label) => !dataset.labels.includes(label));
  if (unknown.length > 0) throw new RefusalError(`not in the public label set of "${dataset.name}": ${unknown.join(', ')}`);
  return requested ? dataset.labels.filter((label) => requested.includes(label)) : dataset.labels;
}

/** What a job charges as a function of the noise parameter, with its pools and shape. */
export interface SynthesisFamily {
  shape: SynthesisShape;
  pools: PoolPlan[];
  /** True for the exponential variant: the parameter is ε per token (ε rises with it). */
  exponential: boolean;
  /** The pool-size release, charged first as its own ledger entry (null: sizes declared public). */
  sizeEvent: PrivacyEvent | null;
  /** The job's own event: what its reservation charges (the token steps). */
  jobEventAt(parameter: number): PrivacyEvent;
  /** What the prompt costs in all — Sequence[size release, job], or the job alone — calibrated to the requested ε. */
  eventAt(parameter: number): PrivacyEvent;
}

export function synthesisFamily(
  request: SynthesisRequest,
  dataset: SynthesisDataset,
  poolUnits: ReadonlyMap<string | undefined, number>,
): SynthesisFamily {
  const shape: SynthesisShape = { teachers: request.teachers, perTeacher: request.perTeacher, topK: request.topK, maxTokens: request.maxTokens, sampling: request.sampling };
  const labels = demonstrationLabels(dataset, request.labels);
  const pools = spreadShots(request.shots, labels).map((p) => ({ ...p, units: poolUnits.get(p.label) ?? 0 }));
  for (const p of pools) if (p.units === 0) throw new RefusalError(`the private pool of ${p.label === undefined ? dataset.name : `label "${p.label}"`} is empty`);
  // The pool sizes' release is charged first, on its own (none where declared public); the requested ε covers it.
  const sizeEvent = poolSizeEvent(dataset.sizePublic === true);
  refuseBelowSizeRelease(request.epsilon, sizeEvent, 'the noisy pool sizes');
  const jobEventAt = (p: number) => jobEvent(pools, shape, aggregatorAt(request, p), dataset.privacyUnit);
  return {
    shape,
    pools,
    exponential: request.method === 'dp-few-shot-exponential',
    sizeEvent,
    jobEventAt,
    eventAt: (p) => (sizeEvent ? sequence([sizeEvent, jobEventAt(p)]) : jobEventAt(p)),
  };
}

/** Labels chosen for the job that get no demonstration (fewer shots than labels). */
function unservedLabels(dataset: SynthesisDataset, request: SynthesisRequest, pools: readonly PoolPlan[]): string[] {
  const labels = demonstrationLabels(dataset, request.labels) ?? [];
  const left = labels.filter((label) => !pools.some((p) => p.label === label));
  if (left.length === 0) return [];
  return [`${request.shots} shots over ${labels.length} labels: ${left.join(', ')} ${left.length === 1 ? 'gets' : 'get'} no demonstration (raise the shots to ${labels.length} or more, or choose fewer labels)`];
}

export function priceSynthesis(
  request: SynthesisRequest,
  dataset: SynthesisDataset,
  poolUnits: ReadonlyMap<string | undefined, number>,
  budget: BudgetState | null,
  /** Privacy units N of the whole private split (the δ default is defaultDelta(N)). */
  units: number,
  /** True in a job: the size release is already charged (in `budget.spent`); a preview counts it. */
  sizeCharged = false,
): PricedJob {
  const { shape, pools, exponential, sizeEvent, jobEventAt, eventAt } = synthesisFamily(request, dataset, poolUnits);
  const jobDelta = request.delta ?? budget?.delta ?? defaultDelta(units);
  const parameter = calibrateTwoStage({
    family: eventAt,
    target: { epsilon: request.epsilon, delta: jobDelta },
    decreasing: !exponential,
    tolerance: CALIBRATION_TOLERANCE,
  });
  const event = jobEventAt(parameter);
  const totalEvent = eventAt(parameter);
  const account = accountEpsilon(totalEvent, jobDelta);
  // In a job the size release is already in `spent`; a preview counts it here.
  const after = budgetAfter(budget, sizeCharged ? event : totalEvent);
  return {
    plan: {
      request,
      delta: jobDelta,
      noise: exponential ? { kind: 'exponential', epsilonPerToken: parameter } : { kind: 'gaussian', sigma: parameter },
      pools: pools.map((p) => ({ ...p, q: samplingRate(shape, p.units) })),
      event,
      sizeEpsilon: sizeEvent === null ? null : POOL_SIZE_EPSILON,
      totalEvent,
      epsilon: account.bounds,
      accountant: account.accountant,
      budget: after,
      warnings: [
        ...planWarnings({ delta: jobDelta, units, epsilon: request.epsilon, rates: pools.map((p) => ({ pool: p.label ?? '(all)', q: samplingRate(shape, p.units) })) }),
        ...(after && after.afterJob > after.cap ? [overCapWarning(after.afterJob, after.cap)] : []),
        ...unservedLabels(dataset, request, pools),
      ],
    },
    aggregator: aggregatorAt(request, parameter),
    shape,
    pools,
    template: templateFor(dataset, request),
    poolSizes: poolSizeSource(pools.length, dataset.privacyUnit, dataset.sizePublic === true),
  };
}
