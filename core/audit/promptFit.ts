/**
 * Audit prompts that exceed the model's context are cut from the left, as teacher prompts
 * are, but by whole paragraphs: a few-shot prompt's paragraphs are its instruction, then one
 * demonstration each (demonstrations are one line of text and one of label), so the cut drops
 * the instruction and then the oldest demonstrations, keeping the most recent ones. The query
 * (the candidate text the attack asks about) and the room for what is scored or generated
 * after it are never cut. The rule looks only at token counts, never at whether the candidate
 * is a member, so both arms of an audit are cut the same way; the report counts the cuts.
 * A model that cannot tokenize (a remote server without /tokenize) is measured by an upper
 * bound instead (tokens ≤ UTF-8 bytes, raw or in any normal form, plus a margin for specials:
 * core/model/tokenBound.ts), the same bound for every query, so both arms stay alike.
 */
import type { LanguageModel } from '../model/languageModel';
import { ADDED_TOKENS_MARGIN, tokenBound } from '../model/tokenBound';

/** A query that does not fit the context even with the whole prompt cut away (it is left out of its score). */
export class QueryTooLongError extends Error {
  constructor(context: number, what = 'the query') {
    super(`${what} alone exceeds the model's context of ${context} tokens: load the model with a longer context`);
  }
}

/** Where a cut may start: the prompt's start, every paragraph's start (after a blank line), and its end (nothing kept). */
export function cutPoints(prompt: string): number[] {
  const points = [0];
  for (const m of prompt.matchAll(/\n[ \t]*\n\s*/g)) {
    const at = m.index + m[0].length;
    if (at > points[points.length - 1] && at < prompt.length) points.push(at);
  }
  if (prompt.length > 0) points.push(prompt.length);
  return points;
}

export interface FittedPrompt {
  /** The prompt, or its shortest-cut suffix of whole paragraphs (possibly empty) whose query fits. */
  prompt: string;
  cut: boolean;
}

/**
 * The least cut from the left whose query fits: `fits(suffix)` says whether the query built on
 * that suffix of the prompt fits (a shorter suffix never needs more tokens, so a binary search
 * over the cut points finds it). Null when even the query on an empty prompt does not fit.
 */
export async function cutFromLeft(prompt: string, fits: (prompt: string) => Promise<boolean>): Promise<FittedPrompt | null> {
  if (await fits(prompt)) return { prompt, cut: false };
  const points = cutPoints(prompt);
  let tooLong = 0;
  let fitting = points.length - 1;
  if (!(await fits(prompt.slice(points[fitting])))) return null;
  while (fitting - tooLong > 1) {
    const mid = (tooLong + fitting) >> 1;
    if (await fits(prompt.slice(points[mid]))) fitting = mid;
    else tooLong = mid;
  }
  return { prompt: prompt.slice(points[fitting]), cut: true };
}

/**
 * Fits queries built on one prompt to `model`'s context: the positions a tokenizer adds (a BOS;
 * for a bound, ADDED_TOKENS_MARGIN), then `room` tokens for the scored answer or the
 * generation. A model without a known context gets the prompt unchanged. Counts the queries
 * whose prompt was cut.
 */
export class PromptFitter {
  cuts = 0;
  private readonly lengths = new Map<string, number>();

  constructor(
    private readonly model: LanguageModel,
    private readonly prompt: string,
  ) {}

  /** The model's token count of `text`, or where it cannot tokenize, the bound no tokenizer in use exceeds. */
  private async tokens(text: string): Promise<number> {
    return this.model.capabilities.tokenize ? (await this.model.tokenize(text)).length : tokenBound(text);
  }

  /** The query `build(prompt)` on the prompt cut as little as possible; throws QueryTooLongError. */
  async query(build: (prompt: string) => string, room: number): Promise<string> {
    const context = this.model.info.contextLength;
    if (context === null) return build(this.prompt);
    const added = this.model.capabilities.tokenize ? 1 : ADDED_TOKENS_MARGIN;
    const fits = async (prompt: string) => (await this.tokens(build(prompt))) + added + room <= context;
    const fitted = await cutFromLeft(this.prompt, fits);
    if (!fitted) throw new QueryTooLongError(context);
    if (fitted.cut) this.cuts++;
    return build(fitted.prompt);
  }

  /** Tokens of the longest of `texts` (the room a scored answer needs). */
  async longest(texts: readonly string[]): Promise<number> {
    if (this.model.info.contextLength === null) return 0;
    const key = texts.join('\u0000');
    let most = this.lengths.get(key);
    if (most === undefined) {
      most = 0;
      for (const text of texts) most = Math.max(most, await this.tokens(text));
      this.lengths.set(key, most);
    }
    return most;
  }
}
