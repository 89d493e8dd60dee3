/**
 * Hashed TF-IDF embeddings (the reference learner's `embed`): words hashed into 512
 * signed buckets (feature hashing, Weinberger et al. 2009), weighted by sublinear term
 * frequency (1 + log tf) times the bucket's inverse document frequency in the public
 * background corpus, then scaled to unit ℓ2 norm. A text with no words maps to e₀.
 */
import { EMBEDDING_DIMENSION } from './backgroundData';
import { fnv1a, words } from './words';

export function embeddingBucket(word: string): number {
  return fnv1a(word) % EMBEDDING_DIMENSION;
}

function sign(word: string): number {
  return fnv1a(`±${word}`) & 1 ? 1 : -1;
}

export class TfidfEmbedder {
  private readonly idf: Float64Array;

  constructor(documentFrequency: readonly number[], documents: number) {
    this.idf = Float64Array.from(documentFrequency, (df) => Math.log((documents + 1) / (df + 1)) + 1);
  }

  get dimension(): number {
    return EMBEDDING_DIMENSION;
  }

  embed(text: string): Float32Array {
    const tf = new Map<string, number>();
    for (const w of words(text)) tf.set(w, (tf.get(w) ?? 0) + 1);
    const v = new Float64Array(EMBEDDING_DIMENSION);
    for (const [w, n] of tf) {
      const b = embeddingBucket(w);
      v[b] += sign(w) * (1 + Math.log(n)) * this.idf[b];
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    const out = new Float32Array(EMBEDDING_DIMENSION);
    if (norm === 0) {
      out[0] = 1;
      return out;
    }
    for (let i = 0; i < v.length; i++) out[i] = v[i] / norm;
    return out;
  }
}
