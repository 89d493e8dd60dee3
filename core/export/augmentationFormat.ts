/**
 * The `veil.augmentation/v1` certificate of a public-set augmentation (docs/sga.md) and its
 * exported document: the certificate with the generated examples it hashes. The examples are
 * public (post-processing of the DPM release and public seeds), so the file carries them whole.
 * `contentHash` is the SHA-256 of the examples; `releaseHash` that of the whole document but
 * the fields fixed at the ledger commit (`ledger`, `releaseHash`): the commit records it as its
 * output hash. It covers `generated.added` / `generated.duplicates`: the job adds exactly the
 * examples it certifies or none (added = examples, duplicates = 0). Documents issued before
 * (`uncountedReleaseHash`) left those two counts out: the vault wrote them after the commit.
 */
import { z } from 'zod';
import { privacyEventSchema } from '../accounting/events';
import { canonicalJson, declaredFormat, sha256Hex } from './canonicalJson';

export const AUGMENTATION_FORMAT = 'veil.augmentation/v1';

const boundsSchema = z.object({ lower: z.number(), estimate: z.number(), upper: z.number() });

export const augmentationCertificateSchema = z.object({
  format: z.literal(AUGMENTATION_FORMAT),
  dataset: z.string(),
  issuedAt: z.string(),
  privacyUnit: z.enum(['record', 'subject']),
  neighbouring: z.literal('add-remove'),
  mechanism: z.string(),
  rho: z.number(),
  depth: z.number(),
  event: privacyEventSchema,
  epsilon: boundsSchema,
  delta: z.number(),
  accountant: z.string(),
  model: z.object({ backend: z.string(), name: z.string() }),
  seeds: z.object({ count: z.number(), noisyCounts: z.array(z.number()), fallback: z.boolean() }),
  generated: z.object({ requested: z.number(), added: z.number(), duplicates: z.number(), tags: z.array(z.string()) }),
  /** SHA-256 of the generated examples (canonical JSON), committed in the ledger as the output hash. */
  contentHash: z.string(),
  /** Absent on certificates issued before release hashes (their commit holds the content hash; they cannot be exported). */
  releaseHash: z.string().optional(),
  ledger: z.object({ entryId: z.number(), entryHash: z.string() }),
});
export type AugmentationCertificate = z.infer<typeof augmentationCertificateSchema>;

/** A generated example as hashed: every example the job added (in documents issued before the counts were bound, duplicates the vault skipped too). */
const generatedExampleSchema = z.object({ text: z.string(), label: z.string().nullable(), output: z.string().nullable() }).strict();
export type GeneratedExample = z.infer<typeof generatedExampleSchema>;

/** The exported file: the certificate's fields and the examples whose hash it states. */
export const augmentationDocumentSchema = augmentationCertificateSchema.extend({ examples: z.array(generatedExampleSchema) });
export type AugmentationDocument = z.infer<typeof augmentationDocumentSchema>;

export const augmentationContentHash = (examples: GeneratedExample[]): Promise<string> =>
  sha256Hex(canonicalJson(examples.map((e) => ({ text: e.text, label: e.label, output: e.output }))));

/** SHA-256 of a document as parsed (unknown fields included) without its commit-bound fields. */
export function augmentationReleaseHash(doc: object): Promise<string> {
  const { ledger: _ledger, releaseHash: _hash, ...rest } = doc as { ledger?: unknown; releaseHash?: unknown };
  return sha256Hex(canonicalJson(rest));
}

/** The release hash of a document issued before the counts were bound: also without `generated.added` / `duplicates`. */
export function uncountedReleaseHash(doc: object): Promise<string> {
  const { generated, ...rest } = doc as { generated?: unknown };
  const { added: _added, duplicates: _duplicates, ...declared } = (generated ?? {}) as Record<string, unknown>;
  return augmentationReleaseHash({ ...rest, generated: declared });
}

export const isAugmentationText = (text: string): boolean => declaredFormat(text) === AUGMENTATION_FORMAT;
