/**
 * An upper bound on any tokenizer's token count that needs no tokenizer: for fitting a prompt
 * to a context when the model cannot tokenize for us (a remote server without /tokenize).
 *
 * Every tokenizer in use emits at most one token per UTF-8 byte of the text it tokenizes
 * (byte-level BPE: each token covers ≥ 1 byte; SentencePiece with byte fallback: ≥ 1 byte),
 * after its normaliser: none, NFC (Qwen2), NFD, NFKC or NFKD. Any of them can lengthen a text:
 * NFC and NFD decompose composition exclusions (U+0958 3 → 6 bytes, U+1D15E 4 → 8), NFKC and
 * NFKD expand compatibility characters (U+FDFA 3 → 33 bytes) but shrink others (U+338F "㎏" →
 * "kg"), so no one form bounds the rest: ("\u338F\u0958") is 6 bytes raw, 8 after NFKC, 9 after
 * NFC. So tokens ≤ the most UTF-8 bytes of the text and its four normal forms, + a few specials.
 */

/** Tokens a tokenizer may add beyond the bound (BOS/EOS, a SentencePiece word prefix). */
export const ADDED_TOKENS_MARGIN = 8;

const encoder = new TextEncoder();
const ASCII = /^\p{ASCII}*$/u;
const NORMAL_FORMS = ['NFC', 'NFD', 'NFKC', 'NFKD'] as const;
const bytes = (text: string) => encoder.encode(text).length;

/** An upper bound on the tokens of `text` under any tokenizer above, specials excluded. */
export function tokenBound(text: string): number {
  if (ASCII.test(text)) return text.length; // every normal form leaves ASCII alone; one byte per character
  return Math.max(bytes(text), ...NORMAL_FORMS.map((form) => bytes(text.normalize(form))));
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
