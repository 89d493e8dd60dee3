/**
 * Canaries for the one-run audit (Steinke, Nasr & Jagielski 2023, §2): m distinctive
 * synthetic records, each included in the working copy independently with probability ½
 * (a fair coin from the CSPRNG). After the mechanism ran once on that copy, each canary
 * is scored; the auditor guesses "in" for the k highest and "out" for the k lowest scores
 * and abstains on the rest. Several k are tried; each is tested at β / (number of k tried)
 * (Bonferroni), so the reported best bound keeps its confidence.
 */
import type { RandomSource } from '../random/randomSource';
import { fairCoin, uniformInt } from '../random/uniform';
import { oneRunEpsilonLowerBound, type OneRunBound, type OneRunCounts } from './oneRunBound';

export interface Canary {
  text: string;
  label: string | null;
  included: boolean;
}

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/** A made-up word (consonant–vowel syllables): no real record contains it. */
function nonsenseWord(random: RandomSource): string {
  let word = '';
  const syllables = 2 + uniformInt(random, 2);
  for (let s = 0; s < syllables; s++) word += CONSONANTS[uniformInt(random, CONSONANTS.length)] + VOWELS[uniformInt(random, VOWELS.length)];
  return word;
}

/** m canaries of `words` made-up words, each with a public label (if any) and its inclusion coin. */
export function makeCanaries(m: number, labels: readonly string[], random: RandomSource, words = 12): Canary[] {
  return Array.from({ length: m }, () => ({
    text: Array.from({ length: words }, () => nonsenseWord(random)).join(' '),
    label: labels.length > 0 ? labels[uniformInt(random, labels.length)] : null,
    included: fairCoin(random),
  }));
}

export interface CanaryGuess {
  /** Guesses per side: "in" for the k highest scores, "out" for the k lowest. */
  k: number;
  counts: OneRunCounts;
  bound: OneRunBound;
}

/** The k tried: m/16, m/8, m/4, m/2 per side (at least 1 each, distinct). */
export function guessSizes(m: number): number[] {
  return [...new Set([Math.floor(m / 16), Math.floor(m / 8), Math.floor(m / 4), Math.floor(m / 2)].map((k) => Math.max(1, k)))].filter((k) => 2 * k <= m);
}

/** The best Bonferroni-corrected bound over the guess sizes, and the counts it came from. */
export function canaryBound(scores: readonly number[], included: readonly boolean[], delta: number, confidence = 0.95): CanaryGuess {
  const m = scores.length;
  if (m < 2 || included.length !== m) throw new Error('need at least two scored canaries');
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s).map((x) => x.i);
  const sizes = guessSizes(m);
  const perTest = 1 - (1 - confidence) / sizes.length;
  let best: CanaryGuess | null = null;
  for (const k of sizes) {
    const right = order.slice(0, k).filter((i) => included[i]).length + order.slice(m - k).filter((i) => !included[i]).length;
    const counts = { m, r: 2 * k, v: right };
    const bound = oneRunEpsilonLowerBound(counts, delta, perTest);
    if (!best || bound.epsilon > best.bound.epsilon) best = { k, counts, bound: { ...bound, confidence } };
  }
  return best!;
}
