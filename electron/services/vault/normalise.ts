/** Duplicate detection: the SHA-256 of a record's normalised text (NFKC, case-folded, whitespace collapsed). */
import { createHash } from 'node:crypto';

export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function contentHash(text: string): string {
  return createHash('sha256').update(normaliseText(text)).digest('hex');
}
