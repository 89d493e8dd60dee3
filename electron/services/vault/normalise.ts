/** Duplicate detection: the SHA-256 of a record's normalised text (NFKC, case-folded, whitespace collapsed). */
import { createHash, hash } from 'node:crypto';

/** Whitespace other than a lone space: only then does collapsing change anything (it is costly on long texts). */
const UNCOLLAPSED = /[^\S ]| {2}/;

export function normaliseText(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase();
  return (UNCOLLAPSED.test(folded) ? folded.replace(/\s+/g, ' ') : folded).trim();
}

export function contentHash(text: string): string {
  return hash('sha256', normaliseText(text), 'hex'); // one-shot: no Hash object per record
}

/**
 * The content hash of a record whose text another record of its dataset already has
 * (after a redaction): unique to the record, so the unique (dataset, hash) key lets both
 * stay, and never equal to any text's contentHash.
 */
export function recordContentHash(text: string, recordId: number): string {
  return createHash('sha256').update(`${normaliseText(text)}\u0000redacted:${recordId}`).digest('hex');
}
