/**
 * Keyword space aggregation's public side (Wu, Panda, Wang & Mittal, DP-ICL, ICLR 2024, §3.2):
 * the keyword universe and each response's keyword set.
 *
 * The universe must not depend on private data (ARCHITECTURE §4: candidate sets of
 * exponential-type mechanisms are public): it is built from the words of the query and of the
 * public zero-shot candidates only, stop-words removed. A teacher's response then counts each
 * universe word once (its keyword set), so one changed teacher moves each count by ≤ 1
 * (answerAggregates.ts, KEYWORD_COUNT_LINF). A word that appears only in private records or in
 * teachers' responses can never enter the universe, hence never be released.
 */

/** Common English function words: never keywords. */
const STOP_WORDS = new Set(
  ('a an and are as at be been being but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this those to up us was we were what when ' +
    'where which who whom why will with would you your yours answer question using keywords').split(' '),
);

/** Lower-cased letter/digit words of a text, stop-words and one-character words removed, in order of appearance. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/** The public universe: distinct content words of the query, then of each public candidate, in order of first appearance. */
export function keywordUniverse(query: string, publicCandidates: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const text of [query, ...publicCandidates]) for (const w of contentWords(text)) seen.add(w);
  return [...seen];
}

/** The universe indices of the words a response contains, each once. */
export function keywordSet(response: string, universe: readonly string[]): Set<number> {
  const index = new Map(universe.map((w, i) => [w, i]));
  const set = new Set<number>();
  for (const w of contentWords(response)) {
    const i = index.get(w);
    if (i !== undefined) set.add(i);
  }
  return set;
}
