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

export const synthesisPreviewMethods = {
  'synth.preview': method(
    synthesisRequestSchema.extend({ limit: z.number().int().min(1).max(5000).default(200).describe('held-out examples of the utility check') }).strict(),
    z.object({ jobId: z.string() }),
    'Run the job on the public split as if private, with its utility check: free, reads no private record (result: jobs.get)',
  ),
};
