/**
 * The in-context part of the reference learner: a cache language model of the prompt
 * (Kuhn & De Mori 1990) — n-gram counts of the tokens seen so far, up to 4-grams —
 * mixed over the background distribution with Witten–Bell interpolation:
 *
 *   P_0(w | h) = (1 − μ) · P_bg(w | v) + μ · c(w) / n                   (unigram cache)
 *   P_k(w | h) = (c(h_k w) + T(h_k) · P_{k−1}(w | h)) / (c(h_k •) + T(h_k))   k = 1…3
 *
 * where h_k is the last k tokens, c counts in the prompt and T(h_k) is the number of
 * distinct tokens that followed h_k. Patterns repeated in the demonstrations ("Label:"
 * followed by one of the labels) are therefore continued the way the prompt continued them.
 */
import type { TokenId } from '../languageModel';

const MAX_HISTORY = 3;
const UNIGRAM_WEIGHT = 0.15;
const UNIGRAM_HALF = 50;

type Row = Map<TokenId, number>;

export class CacheModel {
  private readonly tables: Map<string, Row>[] = Array.from({ length: MAX_HISTORY }, () => new Map());
  private readonly rowTotals: Map<string, number>[] = Array.from({ length: MAX_HISTORY }, () => new Map());
  private readonly unigram = new Map<TokenId, number>();
  /** Σ of the unigram counts (kept as tokens are counted, not summed again per prediction). */
  private unigramTotal = 0;
  private readonly tokens: TokenId[] = [];

  constructor(tokens: readonly TokenId[] = []) {
    for (const t of tokens) this.push(t);
  }

  get length(): number {
    return this.tokens.length;
  }

  /** Tokens counted so far (those pushed with `count` true). */
  get counted(): number {
    return this.unigramTotal;
  }

  get last(): TokenId | undefined {
    return this.tokens[this.tokens.length - 1];
  }

  /** Append a token to the history; `count` false: extend the history without counting it (text being written). */
  push(token: TokenId, count = true): void {
    const n = this.tokens.length;
    if (!count) {
      this.tokens.push(token);
      return;
    }
    for (let k = 1; k <= MAX_HISTORY && k <= n; k++) {
      const key = this.tokens.slice(n - k).join(',');
      const table = this.tables[k - 1];
      let row = table.get(key);
      if (!row) table.set(key, (row = new Map()));
      row.set(token, (row.get(token) ?? 0) + 1);
      this.rowTotals[k - 1].set(key, (this.rowTotals[k - 1].get(key) ?? 0) + 1);
    }
    this.unigram.set(token, (this.unigram.get(token) ?? 0) + 1);
    this.unigramTotal++;
    this.tokens.push(token);
  }

  /** Turn the background distribution `out` into the cache-interpolated one, in place. */
  apply(out: Float64Array): void {
    const n = this.tokens.length;
    if (n === 0) return;
    const counted = this.unigramTotal;
    if (counted > 0) {
      const mu = (UNIGRAM_WEIGHT * counted) / (counted + UNIGRAM_HALF);
      for (let w = 0; w < out.length; w++) out[w] *= 1 - mu;
      for (const [w, c] of this.unigram) if (w < out.length) out[w] += (mu * c) / counted;
    }
    for (let k = 1; k <= MAX_HISTORY && k <= n; k++) {
      const key = this.tokens.slice(n - k).join(',');
      const row = this.tables[k - 1].get(key);
      if (!row) break;
      const total = this.rowTotals[k - 1].get(key)!;
      const types = row.size;
      const keep = types / (total + types);
      for (let w = 0; w < out.length; w++) out[w] *= keep;
      for (const [w, c] of row) if (w < out.length) out[w] += c / (total + types);
    }
  }
}
