/**
 * Builds the reference learner's background (vocabulary, Kneser–Ney bigram statistics,
 * embedding document frequencies) from public texts. Deterministic: the same texts give
 * the same JSON. Run by scripts/generate-reference-background.ts, never on private data.
 */
import { EMBEDDING_DIMENSION, type BackgroundData } from './backgroundData';
import { embeddingBucket } from './tfidfEmbedding';
import { EOS_TOKEN, PRETOKEN, ReferenceTokenizer } from './tokenizer';
import { words } from './words';

export interface BackgroundBuildOptions {
  source: string;
  /** Most vocabulary pieces (besides bytes and end-of-text). */
  maxPieces?: number;
  /** A pre-token must occur this often to become a piece. */
  minPieceCount?: number;
  /** Bigrams rarer than this are pruned (their mass goes to the back-off). */
  minBigramCount?: number;
  maxPieceLength?: number;
}

function byCountThenText(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

export function buildBackground(texts: readonly string[], options: BackgroundBuildOptions): BackgroundData {
  const { maxPieces = 8000, minPieceCount = 3, minBigramCount = 2, maxPieceLength = 24 } = options;
  const pretokenCounts = new Map<string, number>();
  const charCounts = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.matchAll(PRETOKEN)) pretokenCounts.set(m[0], (pretokenCounts.get(m[0]) ?? 0) + 1);
    for (const ch of text) charCounts.set(ch, (charCounts.get(ch) ?? 0) + 1);
  }
  const pieces: string[] = [];
  const chosen = new Set<string>();
  const add = (p: string) => {
    if (!chosen.has(p)) {
      chosen.add(p);
      pieces.push(p);
    }
  };
  for (let c = 0x20; c < 0x7f; c++) add(String.fromCharCode(c));
  add('\n');
  for (const [ch, n] of [...charCounts.entries()].sort(byCountThenText)) if (n >= minPieceCount) add(ch);
  const frequent = [...pretokenCounts.entries()].filter(([p, n]) => n >= minPieceCount && p.length <= maxPieceLength).sort(byCountThenText);
  for (const [p] of frequent) {
    if (pieces.length >= maxPieces) break;
    add(p);
  }

  const tokenizer = new ReferenceTokenizer(pieces);
  const v = tokenizer.vocabularySize;
  const bigramCounts = new Map<number, number>();
  const df = new Array<number>(EMBEDDING_DIMENSION).fill(0);
  let tokenTotal = 0;
  for (const text of texts) {
    const ids = [...tokenizer.encode(text), EOS_TOKEN];
    tokenTotal += ids.length;
    let prev = EOS_TOKEN;
    for (const id of ids) {
      const key = prev * v + id;
      bigramCounts.set(key, (bigramCounts.get(key) ?? 0) + 1);
      prev = id;
    }
    for (const bucket of new Set(words(text).map(embeddingBucket))) df[bucket]++;
  }

  const continuation = new Array<number>(v).fill(0);
  const historyCount = new Array<number>(v).fill(0);
  let n1 = 0;
  let n2 = 0;
  const kept: [number, number, number][] = [];
  for (const [key, count] of bigramCounts) {
    const prev = Math.floor(key / v);
    const next = key % v;
    continuation[next]++;
    historyCount[prev] += count;
    if (count === 1) n1++;
    if (count === 2) n2++;
    if (count >= minBigramCount) kept.push([prev, next, count]);
  }
  kept.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const discount = n1 > 0 ? Math.min(0.95, Math.max(0.05, n1 / (n1 + 2 * n2))) : 0.75;
  return {
    format: 'veil-reference-background',
    version: 1,
    source: options.source,
    documents: texts.length,
    tokens: tokenTotal,
    pieces,
    discount,
    continuation,
    historyCount,
    bigrams: kept.flat(),
    embeddingDf: df,
  };
}

