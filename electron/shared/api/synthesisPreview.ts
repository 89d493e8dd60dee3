/**
 * "Preview on public data": a synthesis job run on the dataset's public split as if it were
 * private, with its utility check. Charges nothing and reads no private record; the result
 * is the job's result (jobs.get), never a release.
 */
import { z } from 'zod';
import { method } from './define';
import { synthesisPlanSchema, synthesisRequestSchema, utilitySchema } from './synthesis';

export const synthesisPreviewSchema = z.object({
  dataset: z.string(),
  request: synthesisRequestSchema,
  noise: synthesisPlanSchema.shape.noise,
  /** ε (upper bound) and δ the same job on the private split would spend: nothing is spent here. */
  epsilon: z.number(),
  delta: z.number(),
  /** The public pools the preview sampled from (label, records, sampling rate). */
  pools: z.array(z.object({ label: z.string().optional(), units: z.number(), q: z.number() })),
  demonstrations: z.array(z.object({ text: z.string(), label: z.string().optional(), output: z.string().optional() })),
  utility: utilitySchema,
});
export type SynthesisPreview = z.infer<typeof synthesisPreviewSchema>;

/** Utility against ε from previews on the public split (previewCurve.ts): free, reads no private record. */
export const previewCurveSchema = z.object({
  dataset: z.string(),
  /** 'balanced accuracy' (classification) or 'ROUGE-L' (generation). */
  metric: z.string(),
  /** Classification: the balanced accuracy of any constant answer (1/labels), the bar to clear. */
  constant: z.number().nullable(),
  points: z.array(
    z.object({
      epsilon: z.number(),
      noise: synthesisPlanSchema.shape.noise,
      synthetic: z.number(),
      zeroShot: z.number(),
      realPublic: z.number().nullable(),
    }),
  ),
});
export type PreviewCurve = z.infer<typeof previewCurveSchema>;

/** The ε of the curve's points when none are given. */
export const DEFAULT_CURVE_EPSILONS = [1, 2, 4, 8];

export const synthesisPreviewMethods = {
  'synth.preview': method(
    synthesisRequestSchema.extend({ limit: z.number().int().min(1).max(5000).default(200).describe('held-out examples of the utility check') }).strict(),
    z.object({ jobId: z.string() }),
    'Run the job on the public split as if private, with its utility check: free, reads no private record (result: jobs.get)',
  ),
  'synth.previewCurve': method(
    synthesisRequestSchema
      .omit({ epsilon: true })
      .extend({
        epsilons: z.array(z.number().positive().max(100)).min(1).max(8).default(DEFAULT_CURVE_EPSILONS).describe('the ε of each point'),
        limit: z.number().int().min(1).max(5000).default(200).describe('held-out examples of each utility check'),
      })
      .strict(),
    z.object({ jobId: z.string() }),
    'Utility against ε: the public preview at each ε (same settings): free, reads no private record (result: jobs.get)',
  ),
};
