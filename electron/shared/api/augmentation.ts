/**
 * Augmenting a thin public set (docs/sga.md): DPM centres of the private split's embeddings
 * (charged once, no subsampling) select public seed examples; the model writes new examples
 * like them into the PUBLIC split, tagged 'generated' and 'augmentation-<run id>', with a
 * veil.augmentation/v1 certificate.
 */
import { z } from 'zod';
import { privacyEventSchema } from '../../../core/accounting/events';
import { augmentationCertificateSchema, type AugmentationCertificate } from '../../../core/export/augmentationFormat';
import { DEFAULT_AUGMENTATION_EPSILON } from '../../../core/icl/augmentation/augmentationSeeds';
import { method } from './define';

export const augmentRequestSchema = z
  .object({
    dataset: z.string().min(1),
    epsilon: z.number().positive().max(10).default(DEFAULT_AUGMENTATION_EPSILON).describe('ε of the one DPM release'),
    delta: z.number().positive().lt(1).optional().describe('default: the budget δ, else defaultDelta(N)'),
    examples: z.number().int().min(1).max(500).default(10).describe('new public examples to write'),
    depth: z.number().int().min(1).max(6).default(2).describe('DPM tree depth: up to 2^depth centres'),
    maxTokens: z.number().int().min(8).max(2000).default(200).describe('tokens per generated example'),
  })
  .strict();
export type AugmentRequest = z.output<typeof augmentRequestSchema>;

const boundsSchema = z.object({ lower: z.number(), estimate: z.number(), upper: z.number() });

export const augmentPlanSchema = z.object({
  dataset: z.string(),
  rho: z.number().describe('the calibrated DPM parameter (zCDP units)'),
  depth: z.number(),
  event: privacyEventSchema,
  epsilon: boundsSchema,
  delta: z.number(),
  accountant: z.string(),
  /** M: the new public examples the job writes (the request's). */
  examples: z.number(),
  /** The public examples the seeds are chosen among (the public split or public source, up to the read limit). */
  publicExamples: z.number(),
  /** The budget's cap, what is spent and what would be after this job (accounted upper bounds), when a budget is set. */
  budget: z.object({ cap: z.number(), spent: z.number(), afterJob: z.number() }).nullable(),
  /** Why the job would be refused or is risky (over the cap, no budget). */
  warnings: z.array(z.string()),
});
export type AugmentPlan = z.infer<typeof augmentPlanSchema>;

export { augmentationCertificateSchema, type AugmentationCertificate };

export const augmentationRunSchema = z.object({
  id: z.number(),
  dataset: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'cancelled', 'interrupted']),
  jobId: z.string(),
  createdAt: z.string(),
  request: augmentRequestSchema,
  ledgerEntryId: z.number().nullable(),
  added: z.number(),
  certificate: augmentationCertificateSchema.nullable(),
  error: z.string().nullable(),
});
export type AugmentationRunDto = z.infer<typeof augmentationRunSchema>;

export const augmentationMethods = {
  'augment.plan': method(augmentRequestSchema, augmentPlanSchema, 'Price an augmentation: the calibrated DPM event (nothing reserved)'),
  'augment.start': method(augmentRequestSchema, z.object({ jobId: z.string(), runId: z.number() }), 'Reserve the DPM event and start an augmentation job'),
  'augment.list': method(z.object({ dataset: z.string().optional() }).strict(), z.array(augmentationRunSchema), 'Augmentation runs, newest first'),
  'augment.get': method(z.object({ id: z.number().int().positive() }).strict(), augmentationRunSchema, 'One augmentation run with its certificate'),
  'augment.export': method(
    z.object({ id: z.number().int().positive() }).strict(),
    z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }),
    'The run\'s veil.augmentation/v1 document: its certificate and the generated examples (`certificate.verify` checks it)',
  ),
};
