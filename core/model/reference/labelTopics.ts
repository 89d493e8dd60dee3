/**
 * What each public label's texts look like, learned from the dataset's PUBLIC split only:
 * a class-conditional unigram rescaling of the n-gram model (Bayes' rule on the unigram,
 * as in Gildea & Hofmann 1999, "Topic-based language models"):
 *
 *   P(w | h, label) ∝ P(w | h) · (r(w))^β,   r(w) = P(w | label) / P(w)
 *
 * with add-α smoothed counts of the tokens of the label's public records against those of
 * all public records (each record counts a token once). Applied while the learner writes
 * the text of a demonstration whose head line names the label ("Label: spam\nText: …"),
 * so the public prompt proposes — and the teachers weigh — words of the label's domain;
 * a classification query (text first, "Label:" last) is never rescaled, so zero-shot
 * scores do not change.
 *
 * Reads public text only; the caller must never pass private-split records.
 */
import type { TokenId } from '../languageModel';

const ALPHA = 1;
/** β: how far a label's unigram pulls the n-gram model (1 = Bayes' rule). */
const STRENGTH = 1;

/** Per label, the factor r(w)^β of every token id below the largest seen in public records (exactly 1 for a token not seen). */
export type LabelTopics = ReadonlyMap<string, Float64Array>;

/** Per label, the factor r(w)^β of each token seen in the public records (1 elsewhere), dense by token id. */
export function labelTopics(records: readonly { tokens: readonly TokenId[]; label: string }[]): LabelTopics {
  const all = new Map<TokenId, number>();
  const byLabel = new Map<string, Map<TokenId, number>>();
  const totals = new Map<string, number>();
  let total = 0;
  for (const r of records) {
    const counts = byLabel.get(r.label) ?? new Map<TokenId, number>();
    byLabel.set(r.label, counts);
    for (const t of new Set(r.tokens)) {
      all.set(t, (all.get(t) ?? 0) + 1);
      counts.set(t, (counts.get(t) ?? 0) + 1);
      totals.set(r.label, (totals.get(r.label) ?? 0) + 1);
      total++;
    }
  }
  const types = all.size;
  let size = 0;
  for (const t of all.keys()) size = Math.max(size, t + 1);
  const topics = new Map<string, Float64Array>();
  for (const [label, counts] of byLabel) {
    const n = totals.get(label) ?? 0;
    const factors = new Float64Array(size).fill(1);
    for (const [t, c] of all) {
      const ratio = ((counts.get(t) ?? 0) + ALPHA) / (n + ALPHA * types) / ((c + ALPHA) / (total + ALPHA * types));
      factors[t] = ratio ** STRENGTH;
    }
    topics.set(label, factors);
  }
  return topics;
}

/**
 * Rescale `out` in place by a label's factors and renormalise. An unseen token's factor is
 * exactly 1, and x · 1 = x in floating point: the same numbers as skipping it.
 */
export function applyLabelTopic(factors: Float64Array, out: Float64Array): void {
  const seen = Math.min(factors.length, out.length);
  let sum = 0;
  for (let w = 0; w < seen; w++) {
    out[w] *= factors[w];
    sum += out[w];
  }
  for (let w = seen; w < out.length; w++) sum += out[w];
  if (sum > 0) for (let w = 0; w < out.length; w++) out[w] /= sum;
}
