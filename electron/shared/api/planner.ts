/**
 * The budget planner: price a workload on a dataset before running it — the calibrated
 * noise, ε with its bounds, the ε(δ) curve, ε against the number of queries, the
 * break-even with the other workload, what the budget has left, warnings — and save plans
 * for later jobs. The Budget page asks the headline first and the details after it; the
 * CLI's `veil plan` asks both at once (`plan.compute`): the same numbers.
 */
import { z } from 'zod';
import { privacyEventSchema } from '../../../core/accounting/events';
import { synthesisMethodSchema } from '../../../core/export/dpPromptFormat';
import { method } from './define';

const bounds = z.object({ lower: z.number(), estimate: z.number(), upper: z.number() });

/** When a synthesis job draws its teachers (core/icl/sampling.ts). */
export const samplingModeSchema = z.enum(['per-token', 'per-demonstration']);

export const synthWorkloadSchema = z
  .object({
    kind: z.literal('synth'),
    method: synthesisMethodSchema.default('dp-few-shot-gaussian'),
    shots: z.number().int().min(1).max(64).default(4),
    teachers: z.number().int().min(1).max(200).default(10),
    perTeacher: z.number().int().min(1).max(50).default(1),
    topK: z.number().int().min(2).max(1000).default(100),
    maxTokens: z.number().int().min(1).max(512).default(64),
    rounds: z.number().int().min(0).max(10).default(2),
    sampling: samplingModeSchema.optional().describe('default per-token'),
  })
  .strict();

export const answerWorkloadSchema = z
  .object({
    kind: z.literal('answer'),
    ensemble: z.number().int().min(1).max(500).default(10).describe('teachers per query'),
    shots: z.number().int().min(1).max(64).default(4).describe('private examples per teacher'),
    queries: z.number().int().min(1).max(1_000_000).default(100),
    aggregation: z.enum(['vote', 'embedding', 'keyword', 'sga']).default('vote'),
    sgaDepth: z.number().int().min(1).max(6).optional().describe('sga: split levels of the private clustering (default 2: up to 4 clusters)'),
  })
  .strict();

export const workloadSchema = z.discriminatedUnion('kind', [synthWorkloadSchema, answerWorkloadSchema]);
export type Workload = z.output<typeof workloadSchema>;

export const planRequestSchema = z
  .object({
    dataset: z.string().min(1).max(200).describe('dataset name'),
    epsilon: z.number().positive().max(100).describe('total ε of the planned work'),
    delta: z.number().positive().lt(1).optional().describe('default: the budget δ, else min(1/(10·N), 1e-5)'),
    workload: workloadSchema,
  })
  .strict();
export type PlanRequest = z.output<typeof planRequestSchema>;

const noiseSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('gaussian'),
    sigma: z.number().describe("the mechanism's σ parameter (as synth.plan reports it)"),
    multiplier: z.number().describe('noise multiplier σ / ℓ2 sensitivity'),
  }),
  z.object({ kind: z.literal('pure'), epsilonPerStep: z.number().describe('ε of each token step or query') }),
  z.object({
    kind: z.literal('sga'),
    rho: z.number().describe("the query's SGA budget parameter ρ (core/planning/sgaEvent.ts)"),
    levelEpsilon: z.number().describe('ε of each level of exponential-mechanism splits'),
    sigmaCount: z.number().describe('Gaussian σ on the cluster counts (sensitivity √2)'),
    sigmaSum: z.number().describe('Gaussian σ on the cluster sums (sensitivity 2)'),
  }),
]);

/** The planner's side-by-side of the sampling modes of a synthesis workload (samplingComparison.ts). */
export const samplingComparisonSchema = z.object({
  model: z.string().nullable().describe('the model whose measured step costs give the times (null: none measured yet)'),
  modes: z.array(
    z.object({
      sampling: samplingModeSchema,
      planned: z.boolean().describe("the plan's own mode: its noise and ε are the plan's; the other mode's come from the 1 % accountant (certified; up to ~2 % on the safe side of that mode's own plan)"),
      noise: z.discriminatedUnion('kind', [z.object({ kind: z.literal('gaussian'), sigma: z.number() }), z.object({ kind: z.literal('pure'), epsilonPerStep: z.number() })]).describe('calibrated for the same target ε'),
      epsilonAtPlannedNoise: z.number().describe("ε upper bound of this mode at the plan's noise"),
      secondsPerDemonstration: z.number().nullable(),
      secondsPerJob: z.number().nullable(),
    }),
  ),
});
export type SamplingComparison = z.infer<typeof samplingComparisonSchema>;

/**
 * What the analyst reads first (`plan.headline`, fast): the calibrated noise, ε with its
 * bounds and the RDP cross-check, the sampling rates, the budget after the plan and how many
 * more fit, the warnings.
 */
export const planHeadlineSchema = z.object({
  request: planRequestSchema,
  delta: z.number(),
  units: z.number().describe('privacy units N in the private split'),
  noise: noiseSchema,
  samplingRates: z.array(z.object({ pool: z.string(), units: z.number(), q: z.number() })),
  event: privacyEventSchema,
  epsilon: bounds,
  accountant: z.enum(['pld', 'rdp']),
  rdpEpsilon: z.number().nullable().describe('RDP upper bound beside PLD (cross-check)'),
  budget: z
    .object({ cap: z.number(), delta: z.number(), spent: z.number(), afterPlan: z.number(), remainingRuns: z.number(), remainingAtLimit: z.boolean() })
    .nullable(),
  warnings: z.array(z.string()),
  seconds: z.number(),
});
export type PlanHeadline = z.infer<typeof planHeadlineSchema>;

/**
 * What the analyst reads second (`plan.details`, asked after the headline): the curves, the
 * break-even and the sampling modes side by side, for the same calibrated noise (`event`
 * is the headline's).
 */
export const planDetailsSchema = z.object({
  request: planRequestSchema,
  event: privacyEventSchema.describe("the plan's event, as the headline reports it"),
  privacyCurve: z.array(z.object({ delta: z.number(), epsilon: z.number() })),
  queryCurve: z.array(z.object({ queries: z.number(), answering: z.number(), synthetic: z.number() })),
  breakEven: z.object({
    queries: z.number().nullable().describe('smallest number of answered queries costing more than one synthetic prompt (null: beyond the search limit)'),
    synthEpsilon: z.number(),
    query: privacyEventSchema.describe('one answered query at the same noise per step'),
    answering: answerWorkloadSchema,
    synth: synthWorkloadSchema,
    basis: z.string(),
  }),
  seconds: z.number(),
  samplingModes: samplingComparisonSchema.optional().describe('synthesis workloads: both sampling modes side by side'),
});
export type PlanDetails = z.infer<typeof planDetailsSchema>;

/** Both parts (`plan.compute`: the CLI, saved plans); `seconds` is their sum. */
export const planResultSchema = planHeadlineSchema.extend(planDetailsSchema.shape);
export type PlanResult = z.infer<typeof planResultSchema>;

/** A headline and its details as one plan; `seconds` is the time of both. */
export function joinPlan(headline: PlanHeadline, details: PlanDetails): PlanResult {
  return { ...headline, ...details, seconds: headline.seconds + details.seconds };
}

export const savedPlanSchema = z.object({ id: z.number(), name: z.string(), createdAt: z.string(), request: planRequestSchema });
export type SavedPlan = z.infer<typeof savedPlanSchema>;

export const plannerMethods = {
  'plan.compute': method(planRequestSchema, planResultSchema, 'Price a workload: calibrated noise, ε bounds, curves, break-even, budget left, warnings'),
  'plan.headline': method(planRequestSchema, planHeadlineSchema, "Price a workload, what is read first: calibrated noise, ε bounds, sampling rates, budget left, warnings"),
  'plan.details': method(planRequestSchema, planDetailsSchema, "A priced workload's curves, break-even and sampling modes (same calibration as plan.headline)"),
  'plan.save': method(
    z.object({ name: z.string().trim().min(1).max(200), request: planRequestSchema }).strict(),
    savedPlanSchema,
    'Save a plan (its request) under a name, to run later',
  ),
  'plan.list': method(z.object({ dataset: z.string().optional() }).strict(), z.array(savedPlanSchema), 'Saved plans, newest first'),
  'plan.delete': method(z.object({ id: z.number().int().positive() }).strict(), z.object({ deleted: z.boolean() }), 'Delete a saved plan'),
};
