/**
 * Membership-inference audits (docs/audit.md): start an audit job over one or more targets
 * of a dataset, list and read stored audits, export an audit report (printable HTML, JSON).
 * Audits read private records, are not charged to the ledger and release nothing: results
 * stay on this machine unless the analyst exports a report.
 */
import { z } from 'zod';
import { answerMethodSchema } from '../../../core/export/dpAnswersFormat';
import { method } from './define';

export const auditAttackSchema = z.enum(['label', 'repeat', 'inquiry']);

export const auditTargetSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('baseline'), shots: z.number().int().min(1).max(32).default(4) }).strict()
    .describe('plain few-shot prompts of real private records (the non-private baseline)'),
  z.object({ kind: z.literal('run'), runId: z.number().int().positive() }).strict().describe('a stored DP synthesis run'),
  z.object({ kind: z.literal('dp-prompt'), document: z.string().min(2).max(10_000_000), name: z.string().max(200).optional() }).strict()
    .describe('an exported veil.dp-prompt/v1 file'),
  z.object({ kind: z.literal('prompt'), text: z.string().min(1).max(1_000_000), name: z.string().max(200).optional() }).strict()
    .describe('a prompt file the analyst brings (Text:/Label: lines)'),
  z.object({
    kind: z.literal('answering'),
    aggregation: answerMethodSchema.optional().describe('default: vote for classification, embedding for generation'),
    epsilon: z.number().positive().max(100_000).describe('ε of each answered query (an audit may go past the answering cap of 100 to measure a nearly non-private ensemble)'),
    ensemble: z.number().int().min(1).max(200).default(10),
    shots: z.number().int().min(1).max(50).default(2),
    delta: z.number().positive().lt(1).optional().describe('default: the answering default δ for the (noisy) number of private units, not the budget δ'),
  }).strict().describe('private answering (DP-ICL) with a given aggregation and ε per query'),
]);
export type AuditTargetSpec = z.output<typeof auditTargetSpecSchema>;

export const auditRequestSchema = z
  .object({
    dataset: z.string().min(1),
    targets: z.array(auditTargetSpecSchema).min(1).max(6),
    attacks: z.array(auditAttackSchema).min(1).max(3).default(['label', 'repeat']),
    members: z.number().int().min(2).max(2000).default(100).describe('members audited per target'),
    balance: z.enum(['balanced', 'unbalanced']).default('balanced').describe('1:1, or 1:4 members to non-members'),
    canaries: z.number().int().min(0).max(1024).default(0).describe('one-run canary audit: m canaries (0 = none)'),
    replicates: z.number().int().min(100).max(10_000).default(1000).describe('bootstrap replicates'),
    level: z.number().min(0.5).max(0.999).default(0.95).describe('confidence level of the AUROC intervals'),
  })
  .strict();
export type AuditRequest = z.output<typeof auditRequestSchema>;

const intervalSchema = z.object({ lower: z.number(), upper: z.number(), level: z.number(), replicates: z.number() });

const armCountsSchema = z.object({ members: z.number(), nonMembers: z.number() });

export const scoreResultSchema = z.object({
  attack: auditAttackSchema,
  score: z.string(),
  metrics: z.object({
    members: z.number(),
    nonMembers: z.number(),
    auroc: z.number(),
    aurocInterval: intervalSchema,
    tprAt1: z.number(),
    tprAt01: z.number(),
    advantage: z.number(),
    curve: z.array(z.object({ fpr: z.number(), tpr: z.number() })),
  }),
  /** Queries whose prompt was cut from the left to fit the model's context, and candidates left out (the query alone is too long); absent in audits stored before. */
  fit: z.object({ cut: armCountsSchema, leftOut: armCountsSchema }).optional(),
});

export const canaryResultSchema = z.object({
  score: z.string(),
  m: z.number(),
  /** Guesses per side. */
  k: z.number(),
  guesses: z.number(),
  correct: z.number(),
  epsilonLower: z.number(),
  confidence: z.number(),
  delta: z.number(),
  /** What ran on the working copy. */
  mechanism: z.string(),
  /** Canaries whose query had the prompt cut from the left to fit the model's context (absent in audits stored before). */
  promptsCut: z.number().optional(),
});

export const targetResultSchema = z.object({
  kind: z.enum(['baseline', 'run', 'dp-prompt', 'prompt', 'answering']),
  name: z.string(),
  /** The accountant's ε upper bound (null: not private, or unknown for a brought prompt). */
  accountedEpsilon: z.number().nullable(),
  delta: z.number().nullable(),
  design: z.string(),
  scores: z.array(scoreResultSchema),
  skipped: z.array(z.object({ attack: auditAttackSchema, reason: z.string() })),
  canary: canaryResultSchema.nullable(),
  canarySkipped: z.string().nullable(),
});
export type AuditTargetResult = z.infer<typeof targetResultSchema>;

export const auditResultSchema = z.object({ model: z.string(), targets: z.array(targetResultSchema) });
export type AuditResult = z.infer<typeof auditResultSchema>;

export const auditRunSchema = z.object({
  id: z.number(),
  dataset: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'cancelled', 'interrupted']),
  jobId: z.string(),
  createdAt: z.string(),
  /** The request with brought prompt texts and documents left out. */
  request: z.object({
    targets: z.array(z.object({ kind: z.string(), name: z.string() })),
    attacks: z.array(auditAttackSchema),
    members: z.number(),
    balance: z.enum(['balanced', 'unbalanced']),
    canaries: z.number(),
  }),
  result: auditResultSchema.nullable(),
  error: z.string().nullable(),
});
export type AuditRunDto = z.infer<typeof auditRunSchema>;

const auditId = z.object({ id: z.number().int().positive() }).strict();

export const auditMethods = {
  'audit.start': method(auditRequestSchema, z.object({ jobId: z.string(), auditId: z.number() }), 'Start a membership-inference audit job (not charged to the ledger)'),
  'audit.list': method(z.object({ dataset: z.string().optional() }).strict(), z.array(auditRunSchema), 'Stored audits, newest first'),
  'audit.get': method(auditId, auditRunSchema, 'One audit with its results'),
  'audit.export': method(
    z.object({ id: z.number().int().positive(), format: z.enum(['html', 'json']).default('html') }).strict(),
    z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }),
    'The audit report: printable HTML or JSON',
  ),
};
