/**
 * DP synthetic prompts: plan (calibrate and price a job), run it as a budgeted job, list
 * and read runs, evaluate utility on the held-out split, export, verify certificates.
 */
import { z } from 'zod';
import { privacyEventSchema } from '../../../core/accounting/events';
import { augmentationCertificateSchema } from '../../../core/export/augmentationFormat';
import { answersCertificateSchema } from '../../../core/export/dpAnswersFormat';
import { certificateSchema, dpPromptSchema, synthesisMethodSchema } from '../../../core/export/dpPromptFormat';
import { method } from './define';
import { samplingModeSchema } from './planner';
import type { SavedPlan } from './planner';

export { synthesisMethodSchema, type SynthesisMethod } from '../../../core/export/dpPromptFormat';

const bounds = z.object({ lower: z.number(), estimate: z.number(), upper: z.number() });

export const synthesisRequestSchema = z
  .object({
    dataset: z.string().min(1).describe('dataset name'),
    method: synthesisMethodSchema.default('dp-few-shot-gaussian'),
    labels: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(64)
      .optional()
      .describe('public labels to generate demonstrations for (a subset of the label set; default: all)'),
    shots: z.number().int().min(1).max(64).default(4),
    epsilon: z.number().positive().max(100).describe('total ε of the job'),
    delta: z.number().positive().lt(1).optional().describe('default: the dataset budget δ'),
    teachers: z.number().int().min(1).max(200).default(10),
    perTeacher: z.number().int().min(1).max(50).default(1).describe('expected private examples per teacher (default 1: a lower rate q, so each token step needs less noise)'),
    topK: z.number().int().min(2).max(1000).default(100),
    maxTokens: z.number().int().min(1).max(512).default(64),
    rounds: z.number().int().min(0).max(10).default(2).describe('AdaDPSyn: radius-reduction rounds T̂'),
    sampling: samplingModeSchema.optional().describe('draw the teachers for every token, or once per demonstration (KV-cache reuse; accounted as one subsampled composition)'),
    instruction: z.string().max(2000).optional(),
    maxExampleChars: z.number().int().min(20).max(20_000).default(400),
  })
  .strict();
export type SynthesisRequest = z.output<typeof synthesisRequestSchema>;

/** The synthesis request a saved plan describes (its dataset, ε, δ and workload); throws for an answering plan. */
export function synthesisRequestFromPlan(plan: SavedPlan): Omit<SynthesisRequest, 'labels' | 'instruction' | 'maxExampleChars'> {
  const { dataset, epsilon, delta, workload } = plan.request;
  if (workload.kind !== 'synth') throw new Error(`plan "${plan.name}" (#${plan.id}) prices answered queries, not a synthetic prompt`);
  const { kind: _kind, ...shape } = workload;
  return { dataset, epsilon, delta, ...shape };
}

export const poolPlanSchema = z.object({
  label: z.string().optional(),
  units: z.number(),
  demonstrations: z.number(),
  q: z.number(),
});

export const synthesisPlanSchema = z.object({
  request: synthesisRequestSchema,
  delta: z.number(),
  noise: z.union([
    z.object({ kind: z.literal('gaussian'), sigma: z.number() }),
    z.object({ kind: z.literal('exponential'), epsilonPerToken: z.number() }),
  ]),
  pools: z.array(poolPlanSchema),
  /** The job's own event: what its reservation charges. */
  event: privacyEventSchema,
  /** ε of the noisy pool sizes, charged first as their own ledger entry (null: declared public). */
  sizeEpsilon: z.number().nullable(),
  /** What the prompt costs in all: Sequence[size release, job] (or the job alone); `epsilon` is its. */
  totalEvent: privacyEventSchema,
  epsilon: bounds,
  accountant: z.string(),
  budget: z.object({ cap: z.number(), spent: z.number(), afterJob: z.number() }).nullable(),
  warnings: z.array(z.string()),
});
export type SynthesisPlanDto = z.infer<typeof synthesisPlanSchema>;

export const utilitySchema = z.object({
  metric: z.enum(['accuracy', 'rouge-l']),
  examples: z.number(),
  /** Classification: held-out examples per label (absent in checks stored before it was kept). */
  labels: z.record(z.string(), z.number()).optional(),
  synthetic: z.number(),
  zeroShot: z.number(),
  /** Randomly chosen real PUBLIC-split demonstrations: a non-private reference. */
  realPublic: z.number().nullable(),
  /** Classification: answering the most common held-out label every time (the bar to clear). */
  mostCommon: z.object({ label: z.string(), accuracy: z.number() }).optional(),
  /** Classification: balanced accuracy (mean per-label accuracy; 1/labels for a constant answer). */
  balanced: z.object({ synthetic: z.number(), zeroShot: z.number(), realPublic: z.number().nullable() }).optional(),
  model: z.string(),
});

export const runStatusSchema = z.enum(['running', 'succeeded', 'failed', 'cancelled', 'interrupted']);

export const synthesisRunSchema = z.object({
  id: z.number(),
  dataset: z.string(),
  method: synthesisMethodSchema,
  status: runStatusSchema,
  jobId: z.string(),
  createdAt: z.string(),
  epsilon: z.number(),
  delta: z.number(),
  shots: z.number(),
  ledgerEntryId: z.number().nullable(),
  error: z.string().nullable(),
  document: dpPromptSchema.nullable(),
  utility: utilitySchema.nullable(),
  /**
   * After the job: teacher evaluations, and how many failed and got the uniform vector
   * (core/icl/teacherEvaluation.ts). Shown to the analyst only; not in the certificate.
   */
  teachers: z.object({ evaluated: z.number(), substituted: z.number() }).nullable(),
});
export type SynthesisRunDto = z.infer<typeof synthesisRunSchema>;

export const exportFormatSchema = z.enum(['json', 'markdown', 'chat', 'text']);

const runId = z.object({ id: z.number().int().positive() }).strict();

export const synthesisMethods = {
  'synth.plan': method(synthesisRequestSchema, synthesisPlanSchema, 'Calibrate the noise of a synthesis job and price it against the budget'),
  'synth.start': method(synthesisRequestSchema, z.object({ jobId: z.string(), runId: z.number() }), 'Reserve the budget and start a synthesis job'),
  'synth.list': method(z.object({ dataset: z.string().optional() }).strict(), z.array(synthesisRunSchema.omit({ document: true })), 'Synthesis runs, newest first'),
  'synth.get': method(runId, synthesisRunSchema, 'One run with its DP prompt document'),
  'synth.evaluate': method(
    z.object({ id: z.number().int().positive(), limit: z.number().int().min(1).max(5000).default(200) }).strict(),
    z.object({ jobId: z.string() }),
    'Utility check on the held-out split (reads no private records)',
  ),
  'synth.export': method(
    z.object({ id: z.number().int().positive(), format: exportFormatSchema.default('json') }).strict(),
    z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }),
    'The DP prompt as veil.dp-prompt/v1 JSON, Markdown, or chat messages',
  ),
  'certificate.verify': method(
    z.object({ document: z.string().min(2).max(10_000_000) }).strict(),
    z.object({
      valid: z.boolean(),
      checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })),
      certificate: z.union([certificateSchema, answersCertificateSchema, augmentationCertificateSchema]).nullable(),
    }),
    'Check an exported DP prompt, DP answers or augmentation document against its certificate and the ledger',
  ),
};

export const synthesisProgressSchema = z.object({
  runId: z.number(),
  jobId: z.string(),
  demonstrationsDone: z.number(),
  demonstrationsTotal: z.number(),
  stepsDone: z.number(),
  stepsMax: z.number(),
  current: z.object({ label: z.string().optional(), text: z.string() }),
});

export type SynthesisProgress = z.infer<typeof synthesisProgressSchema>;

export const synthesisEvents = {
  'synth.progress': synthesisProgressSchema,
};
