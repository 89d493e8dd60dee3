/**
 * The topic of a prompt's demonstrations: words its demonstration lines use more often
 * than the background does are made more likely wherever they fit — a bag-of-words
 * "trigger" model over the n-gram model (Rosenfeld 1996; the cache model's unigram, but
 * relative to the background). Each distinct line counts a token once, so a topic is what
 * several demonstrations share rather than what one repeats:
 *
 *   f(w) = #lines holding w / (#tokens of the distinct lines + n₀)
 *   P(w | h) ∝ P(w | h) · (1 + λ · min(f(w) / P_bg(w), cap))
 *
 * n₀ keeps a prompt with little text near the n-gram model; the cap keeps one rare word
 * from taking all the mass. Teachers of one label share their label's words, so their
 * votes meet on them; the public prompt (no demonstrations) has no topic.
 */
import type { TokenId } from '../languageModel';

const PRIOR_TOKENS = 100;
const LAMBDA = 10;
const CAP = 200;

export class TopicLift {
  private readonly factor = new Map<TokenId, number>();

  /** `lines`: the tokens of each demonstration line; `prior`: the background's unigram probability. */
  constructor(lines: readonly (readonly TokenId[])[], prior: (token: TokenId) => number) {
    const counts = new Map<TokenId, number>();
    let total = 0;
    for (const line of lines) {
      const distinct = new Set(line);
      total += distinct.size;
      for (const t of distinct) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    for (const [t, c] of counts) {
      const lift = c / (total + PRIOR_TOKENS) / prior(t);
      this.factor.set(t, LAMBDA * Math.min(lift, CAP));
    }
  }

  get empty(): boolean {
    return this.factor.size === 0;
  }

  /** Apply the lift to the distribution `out` in place (renormalised). */
  apply(out: Float64Array): void {
    if (this.empty) return;
    let added = 0;
    for (const [t, f] of this.factor) {
      if (t >= out.length) continue;
      added += out[t] * f;
      out[t] *= 1 + f;
    }
    const norm = 1 / (1 + added);
    for (let w = 0; w < out.length; w++) out[w] *= norm;
  }
}
