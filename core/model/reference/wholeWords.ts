/**
 * Whole words for the reference learner's text: what it writes — its `generate` and its
 * synthesis candidates — is made of vocabulary pieces, each a pre-token of the background's
 * text (a word, a number, a punctuation run, whitespace) or a single character, never raw
 * bytes, and never a letter or digit piece right after one: "tretin" + "oin" would glue
 * pieces into a word no text holds. (An unknown word is encoded exactly so, in longest-prefix
 * pieces and bytes; a known word is one piece, so nothing the background knows is lost.)
 * `generate` may also copy a word of its prompt that takes several tokens, whole (PromptWords).
 */
import type { TokenId } from '../languageModel';
import { EOS_TOKEN, FIRST_PIECE, PRETOKEN, type ReferenceTokenizer } from './tokenizer';

export interface WordEdges {
  startsWord: Uint8Array;
  endsWord: Uint8Array;
}

const LETTER_OR_DIGIT_FIRST = /^[\p{L}\p{N}]/u;
const LETTER_OR_DIGIT_LAST = /[\p{L}\p{N}]$/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Per token: whether its text starts (ends) with a letter or digit; a non-ASCII byte is part of one. */
export function wordEdges(tokenizer: ReferenceTokenizer): WordEdges {
  const size = tokenizer.vocabularySize;
  const edge = (t: TokenId, re: RegExp) => (t >= FIRST_PIECE ? re.test(tokenizer.tokenText(t)) : t >= 0x80 && t < EOS_TOKEN);
  return {
    startsWord: Uint8Array.from({ length: size }, (_, t) => (edge(t, LETTER_OR_DIGIT_FIRST) ? 1 : 0)),
    endsWord: Uint8Array.from({ length: size }, (_, t) => (edge(t, LETTER_OR_DIGIT_LAST) ? 1 : 0)),
  };
}

const glues = (edges: WordEdges, last: TokenId, next: TokenId) => edges.endsWord[last] === 1 && edges.startsWord[next] === 1;

/** Zero, in place, every token that cannot come after `last` in whole words: the bytes, and a word piece glued to a word. */
export function keepWholeWords(probs: Float64Array, last: TokenId, edges: WordEdges): void {
  probs.fill(0, 0, EOS_TOKEN); // ids below end-of-text are the bytes
  if (edges.endsWord[last] !== 1) return;
  for (let t = FIRST_PIECE; t < probs.length; t++) if (edges.startsWord[t] === 1) probs[t] = 0;
}

interface WordNode {
  next: Map<TokenId, WordNode>;
  /** Tokens of the word up to here. */
  depth: number;
  /** A whole word of the prompt ends here. */
  word: boolean;
}

const newNode = (depth: number): WordNode => ({ next: new Map(), depth, word: false });

/**
 * The text `generate` writes after a prompt, one token at a time, in whole words: a word of
 * the vocabulary, or a word of the prompt the vocabulary holds only as several tokens (a
 * trie of their token sequences), copied whole — once begun, only its next token may follow
 * until it is complete.
 */
export class PromptWords {
  private readonly root = newNode(0);
  /** Where the text is inside a prompt word being copied, or null. */
  private node: WordNode | null = null;

  constructor(tokenizer: ReferenceTokenizer, private readonly edges: WordEdges, promptText: string, private last: TokenId) {
    for (const [pre] of promptText.matchAll(PRETOKEN)) {
      const tokens = HAS_LETTER_OR_DIGIT.test(pre) ? tokenizer.encode(pre) : [];
      if (tokens.length < 2) continue;
      let node = this.root;
      for (const t of tokens) node = node.next.get(t) ?? node.next.set(t, newNode(node.depth + 1)).get(t)!;
      node.word = true;
      if (tokens[0] >= FIRST_PIECE) this.root.next.get(tokens[0])!.word = true; // a piece alone is a word too
    }
  }

  /** Zero, in place, every token that would not continue the text in whole words. */
  restrict(probs: Float64Array): void {
    const node = this.node;
    const inside = node !== null && !node.word;
    const starts = inside ? [] : [...this.root.next.keys()].filter((t) => !glues(this.edges, this.last, t));
    const copies = [...(node?.next.keys() ?? []), ...starts];
    const kept = copies.map((t) => probs[t]);
    if (inside) probs.fill(0);
    else keepWholeWords(probs, this.last, this.edges);
    copies.forEach((t, i) => (probs[t] = kept[i]));
  }

  /** Tokens at the end of the text that begin a prompt word not yet complete (to drop where the text ends early). */
  unfinished(): number {
    return this.node && !this.node.word ? this.node.depth : 0;
  }

  push(token: TokenId): void {
    this.node = this.node?.next.get(token) ?? (glues(this.edges, this.last, token) ? null : (this.root.next.get(token) ?? null));
    this.last = token;
  }
}
