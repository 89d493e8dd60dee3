/**
 * Pricing a synthesis job: the pools (one per public label, or the whole private split),
 * the aggregator for the chosen method with its noise calibrated so that the job's
 * charged event (synthesisPlan.ts) has ε upper bound ≤ the requested total at δ, and the
 * warnings an analyst should see. The pool sizes set q = M·N/|pool|; like the sampling
 * rate of DP-SGD they are treated as public and stated in the certificate.
 */
import { accountEpsilon } from '../../../core/accounting';
import { calibrate } from '../../../core/accounting/calibration';
import type { Bounds } from '../../../core/accounting/accountant';
import type { PrivacyEvent } from '../../../core/accounting/events';
import { adaDpSynAggregator, defaultAdaDpSynParams } from '../../../core/icl/adaDpSyn';
import { samplingRate, type SynthesisShape } from '../../../core/icl/demonstration';
import { tangAggregator } from '../../../core/icl/dpFewShot';
import { defaultTemplate, type PromptTemplate } from '../../../core/icl/prompts';
import { jobEvent, spreadShots, type PoolPlan } from '../../../core/icl/synthesisPlan';
import type { TokenAggregator } from '../../../core/icl/tokenAggregator';
import type { SynthesisPlanDto, SynthesisRequest } from '../../shared/api/synthesis';
import type { SynthesisDataset } from './synthesisSource';

/** Relative tolerance of the calibrated noise parameter. */
const CALIBRATION_TOLERANCE = 1e-3;
const COMMON_PRACTICE_EPSILON = 10;

export interface PricedJob {
  plan: SynthesisPlanDto;
  aggregator: TokenAggregator;
  shape: SynthesisShape;
  pools: PoolPlan[];
  template: PromptTemplate;
}

export interface BudgetState {
  cap: number;
  delta: number;
  /** Events already reserved or committed. */
  spent: PrivacyEvent[];
}

export function templateFor(dataset: SynthesisDataset, request: SynthesisRequest): PromptTemplate {
  const labels = dataset.labels.join(', ');
  const instruction =
    request.instruction ??
    (dataset.task === 'classification' ? `Classify each text as one of: ${labels}.` : `Write a text like the examples of "${dataset.name}".`);
  const base = defaultTemplate(instruction);
  return { ...base, maxExampleChars: request.maxExampleChars, labelPrefix: dataset.task === 'classification' ? base.labelPrefix : 'Output:' };
}

/** The aggregator of `request.method` at noise parameter p (σ, or ε per token for the exponential variant). */
function aggregatorAt(request: SynthesisRequest, p: number): TokenAggregator {
  if (request.method === 'dp-few-shot-exponential') return tangAggregator({ kind: 'exponential', epsilon: p });
  if (request.method === 'adadpsyn') return adaDpSynAggregator({ ...defaultAdaDpSynParams(p), rounds: request.rounds });
  return tangAggregator({ kind: 'gaussian', sigma: p });
}

function warningsFor(request: SynthesisRequest, delta: number, units: number, pools: PoolPlan[], shape: SynthesisShape): string[] {
  const warnings: string[] = [];
  if (delta >= 1 / units) warnings.push(`δ = ${delta} ≥ 1/N = ${(1 / units).toPrecision(3)}: such a δ allows releasing a record outright; use δ ≤ 1/(10·N)`);
  if (request.epsilon > COMMON_PRACTICE_EPSILON) warnings.push(`ε = ${request.epsilon} is above common practice (ε ≤ ${COMMON_PRACTICE_EPSILON})`);
  for (const p of pools) {
    const q = samplingRate(shape, p.units);
    if (q > 0.5) warnings.push(`pool ${p.label ?? '(all)'}: sampling rate q = ${q.toPrecision(3)} is too high for subsampling to amplify privacy; lower M·N or use more data`);
  }
  return warnings;
}

export function priceSynthesis(
  request: SynthesisRequest,
  dataset: SynthesisDataset,
  poolUnits: ReadonlyMap<string | undefined, number>,
  budget: BudgetState | null,
): PricedJob {
  const shape: SynthesisShape = { teachers: request.teachers, perTeacher: request.perTeacher, topK: request.topK, maxTokens: request.maxTokens };
  const labels = dataset.task === 'classification' ? dataset.labels : undefined;
  if (labels && labels.length === 0) throw new Error(`dataset "${dataset.name}" has no public label set: declare its labels in the vault first`);
  const pools = spreadShots(request.shots, labels).map((p) => ({ ...p, units: poolUnits.get(p.label) ?? 0 }));
  for (const p of pools) if (p.units === 0) throw new Error(`the private pool of ${p.label === undefined ? dataset.name : `label "${p.label}"`} is empty`);
  const units = [...poolUnits.values()].reduce((a, b) => a + b, 0);
  const delta = request.delta ?? budget?.delta ?? 1 / (10 * units);
  const epsilonOf = (event: PrivacyEvent) => accountEpsilon(event, delta).bounds.upper;
  const eventAt = (p: number) => jobEvent(pools, shape, aggregatorAt(request, p), dataset.privacyUnit, epsilonOf);
  const exponential = request.method === 'dp-few-shot-exponential';
  const parameter = calibrate({
    family: eventAt,
    target: { epsilon: request.epsilon, delta },
    decreasing: !exponential,
    tolerance: CALIBRATION_TOLERANCE,
  }).parameter;
  const event = eventAt(parameter);
  const account = accountEpsilon(event, delta);
  const after = budget ? accountEpsilon({ kind: 'sequence', events: [...budget.spent, event], neighbouring: 'add-remove' }, budget.delta).bounds.upper : 0;
  const spent = budget && budget.spent.length > 0 ? accountEpsilon({ kind: 'sequence', events: budget.spent, neighbouring: 'add-remove' }, budget.delta).bounds.upper : 0;
  const epsilon: Bounds = account.bounds;
  return {
    plan: {
      request,
      delta,
      noise: exponential ? { kind: 'exponential', epsilonPerToken: parameter } : { kind: 'gaussian', sigma: parameter },
      pools: pools.map((p) => ({ ...p, q: samplingRate(shape, p.units) })),
      event,
      epsilon,
      accountant: account.accountant,
      budget: budget ? { cap: budget.cap, spent, afterJob: after } : null,
      warnings: [
        ...warningsFor(request, delta, units, pools, shape),
        ...(budget && after > budget.cap ? [`this job would bring ε to ${after.toPrecision(4)}, above the cap ${budget.cap}: it will be refused`] : []),
      ],
    },
    aggregator: aggregatorAt(request, parameter),
    shape,
    pools,
    template: templateFor(dataset, request),
  };
}
