/**
 * The `veil.dp-answers/v1` export: a batch of privately answered queries (DP-ICL) with the
 * privacy certificate of the batch. Same scheme as `veil.dp-prompt/v1` (dpPromptFormat.ts):
 * `contentHash` covers everything but the certificate; the ledger commit of the batch records
 * the release hash (the whole document but the commit-bound certificate fields), so
 * `veil certificate verify` detects an edit of any field.
 *
 * The queries are the analyst's (public input); each answer, histogram, keyword set and PTR
 * outcome is the DP release (or post-processing of it); SGA's candidates are public answers
 * (the public ensemble's) chosen by the DP clustering: post-processing too.
 */
import { z } from 'zod';
import { canonicalJson, declaredFormat, sha256Hex } from './canonicalJson';
import { certificateSchema } from './dpPromptFormat';

export const DP_ANSWERS_FORMAT = 'veil.dp-answers/v1' as const;

/** The aggregations a certificate can name. */
export const answerMethodSchema = z.enum(['vote', 'embedding', 'keyword', 'ptr', 'sga']);

/** `sizeLedger` (dpPromptFormat.ts): the size of the private split the batch was priced from. */
export const answersCertificateSchema = certificateSchema.extend({
  mechanism: answerMethodSchema,
});
export type AnswersCertificate = z.infer<typeof answersCertificateSchema>;

export const releasedAnswerSchema = z.object({
  query: z.string(),
  answer: z.string(),
  /** vote: the noisy vote histogram (one count per label, rounded). */
  histogram: z.array(z.number()).optional(),
  /** keyword methods: the released keywords; ptr: null when the stability test failed. */
  keywords: z.array(z.string()).nullable().optional(),
  ptrPassed: z.boolean().optional(),
  /** sga: the public candidates (largest noisy cluster first; never a private answer) and the index of the released one. */
  candidates: z.array(z.string()).optional(),
  selected: z.number().int().nonnegative().optional(),
});
export type ReleasedAnswer = z.infer<typeof releasedAnswerSchema>;

export const dpAnswersSchema = z.object({
  format: z.literal(DP_ANSWERS_FORMAT),
  task: z.object({ kind: z.enum(['classification', 'generation']), labels: z.array(z.string()) }),
  instruction: z.string(),
  answers: z.array(releasedAnswerSchema),
  certificate: answersCertificateSchema,
});
export type DpAnswersExport = z.infer<typeof dpAnswersSchema>;
export type DpAnswersContent = Omit<DpAnswersExport, 'certificate'>;

export function answersContentHash(doc: DpAnswersContent): Promise<string> {
  const { format, task, instruction, answers } = doc;
  return sha256Hex(canonicalJson({ format, task, instruction, answers }));
}

/** True when a JSON text declares itself a DP answers document (checked before parsing it fully). */
export const isDpAnswersText = (text: string): boolean => declaredFormat(text) === DP_ANSWERS_FORMAT;
