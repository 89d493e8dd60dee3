/**
 * Word features shared by the reference learner's label model (naive Bayes) and its
 * hashed TF-IDF embeddings: lower-cased letter/digit runs plus a few symbols that carry
 * meaning in short texts ($, !, %, €, £). FNV-1a hashing maps words to buckets.
 */
const WORD = /[\p{L}\p{N}]+|[$!%€£]/gu;

export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** 32-bit FNV-1a hash of a string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
