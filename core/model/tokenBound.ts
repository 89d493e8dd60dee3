/**
 * An upper bound on any tokenizer's token count that needs no tokenizer: for fitting a prompt
 * to a context when the model cannot tokenize for us (a remote server without /tokenize).
 *
 * Every tokenizer in use emits at most one token per UTF-8 byte of the text it tokenizes
 * (byte-level BPE: each token covers ≥ 1 byte; SentencePiece with byte fallback: ≥ 1 byte),
 * after its normaliser: none, NFC (never longer) or NFKC (which can expand, e.g. U+FDFA into
 * 18 characters). So tokens ≤ max(bytes(text), bytes(NFKC(text))) + a few added specials.
 */

/** Tokens a tokenizer may add beyond the bound (BOS/EOS, a SentencePiece word prefix). */
export const ADDED_TOKENS_MARGIN = 8;

const encoder = new TextEncoder();
const ASCII = /^\p{ASCII}*$/u;

/** An upper bound on the tokens of `text` under any tokenizer above, specials excluded. */
export function tokenBound(text: string): number {
  if (ASCII.test(text)) return text.length; // NFKC leaves ASCII alone; one byte per character
  return Math.max(encoder.encode(text).length, encoder.encode(text.normalize('NFKC')).length);
}

/**
 * The longest suffix of `text`, cut at a code-point boundary, whose token bound is at most
 * `maxTokens`, found by binary search (the bound grows with the suffix; composition across the
 * cut could bend that, but the suffix returned always satisfies the bound).
 */
export function tailWithin(text: string, maxTokens: number): string {
  if (tokenBound(text) <= maxTokens) return text;
  const points = Array.from(text);
  let lo = 0; // a start that may be too long
  let hi = points.length; // a start that fits (the empty suffix)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (tokenBound(points.slice(mid).join('')) <= maxTokens) hi = mid;
    else lo = mid;
  }
  return points.slice(hi).join('');
}
