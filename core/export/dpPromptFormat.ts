/**
 * The `veil.dp-prompt/v1` export: a DP synthetic few-shot prompt with its privacy
 * certificate. `contentHash` is the SHA-256 of the canonical JSON of everything except the
 * certificate. `releaseHash` is the SHA-256 of the canonical JSON of the whole document
 * except the two certificate fields that name the ledger commit (`ledger`, `releaseHash`):
 * the commit records it as its output hash, so `veil certificate verify` detects an edit of
 * any field, or a certificate that names the wrong entry. Documents issued before
 * `releaseHash` existed have none, and their commit holds the content hash (see
 * verifyDpPrompt.ts and docs/synthesis.md).
 */
import { z } from 'zod';
import { neighbouringSchema, privacyEventSchema } from '../accounting/events';
import { canonicalJson, sha256Hex } from './canonicalJson';

export const DP_PROMPT_FORMAT = 'veil.dp-prompt/v1' as const;

/** The synthesis methods a certificate can name. */
export const synthesisMethodSchema = z.enum(['dp-few-shot-gaussian', 'dp-few-shot-exponential', 'adadpsyn']);
export type SynthesisMethod = z.infer<typeof synthesisMethodSchema>;

const boundsSchema = z.object({ lower: z.number(), estimate: z.number(), upper: z.number() });

export const certificateSchema = z.object({
  mechanism: synthesisMethodSchema,
  epsilon: boundsSchema,
  delta: z.number(),
  accountant: z.string(),
  neighbouring: neighbouringSchema,
  privacyUnit: z.enum(['record', 'subject']),
  sampling: z.object({ kind: z.literal('poisson'), q: z.number() }),
  parameters: z.record(z.string(), z.unknown()),
  event: privacyEventSchema,
  dataset: z.object({ name: z.string(), fingerprint: z.string() }),
  model: z.object({ backend: z.string(), name: z.string(), sha256: z.string().nullable() }),
  ledger: z.object({ entryId: z.number().int(), entryHash: z.string() }),
  appVersion: z.string(),
  issuedAt: z.string(),
  contentHash: z.string(),
  /**
   * How `parameters.pools[].units` were obtained: noisy counts (the mechanism, charged as the
   * first event of `event`, its own ledger entry `sizeLedger`) or declared public by the analyst. Absent in certificates issued
   * before Veil noised pool sizes: their units are exact (see `publicMetadata`).
   */
  poolSizes: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('noisy'), mechanism: z.literal('discrete-laplace'), scale: z.number(), l1Sensitivity: z.number(), epsilon: z.number() }),
      z.object({ kind: z.literal('declared-public') }),
    ])
    .optional(),
  /**
   * The ledger commit of the noisy pool-size release the output was priced from, charged on its
   * own BEFORE the output's reservation (`event` is sequence([its event, the reservation named by
   * `ledger`'s event]); sizeLedgerCheck.ts). Absent where the sizes are declared public, and in
   * certificates issued while the size release was folded into the job's own reservation.
   */
  sizeLedger: z.object({ entryId: z.number().int(), entryHash: z.string() }).optional(),
  /** JSON path → why that value is released without DP protection (see certificate.ts). */
  publicMetadata: z.record(z.string(), z.string()).optional(),
  releaseHash: z.string().optional(),
});
export type PrivacyCertificate = z.infer<typeof certificateSchema>;

export const dpPromptSchema = z.object({
  format: z.literal(DP_PROMPT_FORMAT),
  task: z.object({ kind: z.enum(['classification', 'generation']), labels: z.array(z.string()) }),
  instruction: z.string(),
  demonstrations: z.array(z.object({ text: z.string(), label: z.string().optional(), output: z.string().optional() })),
  prompt: z.string(),
  certificate: certificateSchema,
});
export type DpPromptExport = z.infer<typeof dpPromptSchema>;
export type DpPromptContent = Omit<DpPromptExport, 'certificate'>;

/** SHA-256 of the released content (everything but the certificate). */
export function contentHash(doc: DpPromptContent): Promise<string> {
  const { format, task, instruction, demonstrations, prompt } = doc;
  return sha256Hex(canonicalJson({ format, task, instruction, demonstrations, prompt }));
}

/** The certificate fields that depend on the ledger commit, which records the release hash. */
export type CommitBound = 'ledger' | 'releaseHash';

/**
 * SHA-256 of the canonical JSON of a document (as parsed from its file, unknown fields
 * included) without the certificate's commit-bound fields.
 */
export function releaseHash(doc: { certificate: object }): Promise<string> {
  const { ledger: _ledger, releaseHash: _hash, ...certificate } = doc.certificate as Partial<Record<CommitBound, unknown>>;
  return sha256Hex(canonicalJson({ ...doc, certificate }));
}

/** Plain text / Markdown ready to paste, with a one-line privacy note. */
export function toMarkdown(doc: DpPromptExport): string {
  const c = doc.certificate;
  return [
    doc.prompt.trimEnd(),
    '',
    `<!-- ${DP_PROMPT_FORMAT}: (ε=${c.epsilon.upper.toFixed(3)}, δ=${c.delta.toExponential(2)})-DP, ${c.mechanism}, ledger entry ${c.ledger.entryId} (${c.ledger.entryHash.slice(0, 12)}…) -->`,
    '',
  ].join('\n');
}

/**
 * OpenAI-style chat messages: the instruction as system, each demonstration as a user/assistant
 * pair (the label or output answers the input); a demonstration with neither (certificates from
 * before generation outputs) is a lone assistant turn.
 */
export function toChatMessages(doc: DpPromptExport, inputPrefix = 'Text:'): { role: 'system' | 'user' | 'assistant'; content: string }[] {
  const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [{ role: 'system', content: doc.instruction }];
  for (const d of doc.demonstrations) {
    const answer = d.label ?? d.output;
    if (answer === undefined) messages.push({ role: 'assistant', content: d.text });
    else messages.push({ role: 'user', content: `${inputPrefix} ${d.text}` }, { role: 'assistant', content: answer });
  }
  return messages;
}
