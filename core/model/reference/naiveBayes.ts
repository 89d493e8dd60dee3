/**
 * The reference learner's label model: binarised multinomial naive Bayes (each word
 * counted once per document; Wang & Manning 2012) trained on nothing but the
 * demonstrations in the prompt, with add-one smoothing over the words of the
 * demonstrations and the query, and add-one smoothed class priors.
 */
import { words } from './words';

export interface LabelledText {
  text: string;
  label: string;
}

/** P(label | query) for each of `labels`, from the demonstrations alone. */
export function naiveBayesPosterior(demonstrations: readonly LabelledText[], query: string, labels: readonly string[]): Float64Array {
  const vocabulary = new Set<string>();
  const counts = labels.map(() => new Map<string, number>());
  const totals = new Float64Array(labels.length);
  const docs = new Float64Array(labels.length);
  for (const demo of demonstrations) {
    const c = labels.indexOf(demo.label);
    if (c < 0) continue;
    docs[c]++;
    for (const w of new Set(words(demo.text))) {
      vocabulary.add(w);
      counts[c].set(w, (counts[c].get(w) ?? 0) + 1);
      totals[c]++;
    }
  }
  const seenInDemos = new Set(vocabulary);
  const queryWords = new Set(words(query));
  for (const w of queryWords) vocabulary.add(w);
  const n = docs.reduce((a, b) => a + b, 0);
  const scores = labels.map((_, c) => {
    let score = Math.log((docs[c] + 1) / (n + labels.length));
    const denominator = totals[c] + vocabulary.size;
    for (const w of queryWords) if (seenInDemos.has(w)) score += Math.log(((counts[c].get(w) ?? 0) + 1) / denominator);
    return score;
  });
  const max = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return Float64Array.from(exp, (e) => e / sum);
}
