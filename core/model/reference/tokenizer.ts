/**
 * The reference learner's tokenizer: GPT-2-style pre-tokenisation (a word keeps its
 * leading space; punctuation runs and whitespace runs are separate), a vocabulary of
 * frequent pieces from the public background corpus, greedy longest-prefix matching
 * for unknown words, and byte fallback, so that decode(encode(text)) === text always.
 *
 * Ids: 0–255 are the raw bytes, 256 is end-of-text, 257… are the vocabulary pieces.
 */
import type { TokenId } from '../languageModel';

export const BYTE_TOKENS = 256;
export const EOS_TOKEN = 256;
export const FIRST_PIECE = 257;

/** Pre-tokens: optional space + letters | optional space + digits | optional space + other | whitespace. */
export const PRETOKEN = / ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class ReferenceTokenizer {
  private readonly ids = new Map<string, TokenId>();
  private readonly maxPieceLength: number;

  constructor(readonly pieces: readonly string[]) {
    let max = 1;
    pieces.forEach((piece, i) => {
      if (piece.length === 0) throw new Error('empty vocabulary piece');
      if (!this.ids.has(piece)) this.ids.set(piece, FIRST_PIECE + i);
      max = Math.max(max, piece.length);
    });
    this.maxPieceLength = max;
  }

  get vocabularySize(): number {
    return FIRST_PIECE + this.pieces.length;
  }

  /** The id of a whole piece, if it is in the vocabulary. */
  pieceId(piece: string): TokenId | undefined {
    return this.ids.get(piece);
  }

  encode(text: string): TokenId[] {
    const out: TokenId[] = [];
    for (const match of text.matchAll(PRETOKEN)) this.encodePretoken(match[0], out);
    return out;
  }

  private encodePretoken(pre: string, out: TokenId[]): void {
    const whole = this.ids.get(pre);
    if (whole !== undefined) {
      out.push(whole);
      return;
    }
    let i = 0;
    while (i < pre.length) {
      let matched = false;
      for (let len = Math.min(this.maxPieceLength, pre.length - i); len > 0; len--) {
        const id = this.ids.get(pre.slice(i, i + len));
        if (id !== undefined && !splitsSurrogate(pre, i + len)) {
          out.push(id);
          i += len;
          matched = true;
          break;
        }
      }
      if (matched) continue;
      const codePoint = String.fromCodePoint(pre.codePointAt(i)!);
      for (const byte of encoder.encode(codePoint)) out.push(byte);
      i += codePoint.length;
    }
  }

  decode(tokens: readonly TokenId[]): string {
    let text = '';
    let bytes: number[] = [];
    const flush = () => {
      if (bytes.length) text += decoder.decode(new Uint8Array(bytes));
      bytes = [];
    };
    for (const t of tokens) {
      if (t < BYTE_TOKENS) bytes.push(t);
      else {
        flush();
        if (t !== EOS_TOKEN) text += this.piece(t);
      }
    }
    flush();
    return text;
  }

  /** A token's text: the piece, the ASCII character of a byte, `<0xXX>` for other bytes. */
  tokenText(t: TokenId): string {
    if (t < 0x80) return String.fromCharCode(t);
    if (t < BYTE_TOKENS) return `<0x${t.toString(16).toUpperCase()}>`;
    if (t === EOS_TOKEN) return '<eos>';
    return this.piece(t);
  }

  private piece(t: TokenId): string {
    const piece = this.pieces[t - FIRST_PIECE];
    if (piece === undefined) throw new Error(`token id ${t} is not in the vocabulary`);
    return piece;
  }
}

function splitsSurrogate(s: string, at: number): boolean {
  const code = s.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff && at < s.length;
}
