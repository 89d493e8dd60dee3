/**
 * The reference learner's background: what it knows before seeing a prompt, computed
 * from a public corpus by scripts/generate-reference-background.ts and shipped as
 * resources/model/reference-background.json. Plain JSON data, validated on load.
 *
 * Token ids follow the tokenizer: 0–255 bytes, 256 end-of-text, 257… `pieces`.
 */
import { z } from 'zod';

export const EMBEDDING_DIMENSION = 512;

const backgroundDataSchema = z.object({
  format: z.literal('veil-reference-background'),
  version: z.literal(1),
  /** Where the text came from, for the UI and the docs. */
  source: z.string(),
  documents: z.number().int().positive(),
  tokens: z.number().int().positive(),
  pieces: z.array(z.string().min(1)),
  /** Kneser–Ney absolute discount for the bigram level. */
  discount: z.number().gt(0).lt(1),
  /** Per token id: number of distinct left neighbours, N1+(• w). */
  continuation: z.array(z.number().int().nonnegative()),
  /** Per token id: total count as a bigram history, c(v •). */
  historyCount: z.array(z.number().int().nonnegative()),
  /** Flattened (previous, next, count) triples of the kept bigrams, sorted by previous id. */
  bigrams: z.array(z.number().int().nonnegative()),
  /** Per embedding bucket: number of background documents with a word in it. */
  embeddingDf: z.array(z.number().int().nonnegative()).length(EMBEDDING_DIMENSION),
});
export type BackgroundData = z.infer<typeof backgroundDataSchema>;

/** Validate parsed JSON as background data (sizes consistent with the vocabulary). */
export function parseBackgroundData(json: unknown): BackgroundData {
  const data = backgroundDataSchema.parse(json);
  const v = 257 + data.pieces.length;
  if (data.continuation.length !== v || data.historyCount.length !== v) throw new Error('background data: per-token arrays do not match the vocabulary');
  if (data.bigrams.length % 3 !== 0) throw new Error('background data: bigram triples are incomplete');
  for (let i = 0; i < data.bigrams.length; i += 3) {
    if (data.bigrams[i] >= v || data.bigrams[i + 1] >= v) throw new Error('background data: bigram token id out of range');
  }
  return data;
}
