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

export type LabelTopics = ReadonlyMap<string, ReadonlyMap<TokenId, number>>;

/** Per label, the factor r(w)^β of each token seen in the public records (1 elsewhere). */
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
  const topics = new Map<string, Map<TokenId, number>>();
  for (const [label, counts] of byLabel) {
    const n = totals.get(label) ?? 0;
    const factors = new Map<TokenId, number>();
    for (const [t, c] of all) {
      const ratio = ((counts.get(t) ?? 0) + ALPHA) / (n + ALPHA * types) / ((c + ALPHA) / (total + ALPHA * types));
      factors.set(t, ratio ** STRENGTH);
    }
    topics.set(label, factors);
  }
  return topics;
}

/** Rescale `out` in place by a label's factors and renormalise. */
export function applyLabelTopic(factors: ReadonlyMap<TokenId, number>, out: Float64Array): void {
  let sum = 0;
  for (let w = 0; w < out.length; w++) {
    const f = factors.get(w);
    if (f !== undefined) out[w] *= f;
    sum += out[w];
  }
  if (sum > 0) for (let w = 0; w < out.length; w++) out[w] /= sum;
}
