/**
 * Interpolated Kneser–Ney bigram model of the public background corpus (Kneser & Ney
 * 1995; Chen & Goodman 1999, eq. 26 with one discount):
 *
 *   P(w | v) = max(c(v w) − D, 0) / c(v •)  +  γ(v) · P_cont(w)
 *   P_cont(w) = (1 − ε) · N1+(• w) / N1+(• •)  +  ε / V
 *
 * Rare bigrams were pruned when the background was built; γ(v) = 1 − Σ_kept
 * (c(v w) − D)/c(v •) gives their mass to the back-off, so every row sums to 1 exactly.
 * ε gives every token (bytes included) non-zero probability.
 */
import type { BackgroundData } from './backgroundData';

const EPSILON = 0.01;

export class BackgroundModel {
  readonly vocabularySize: number;
  private readonly base: Float64Array;
  private readonly rowStart: Int32Array;
  private readonly next: Int32Array;
  private readonly weight: Float64Array;
  private readonly backoff: Float64Array;

  constructor(data: BackgroundData) {
    const v = (this.vocabularySize = data.continuation.length);
    const totalContinuation = data.continuation.reduce((a, b) => a + b, 0);
    this.base = Float64Array.from(data.continuation, (n) => (1 - EPSILON) * (n / totalContinuation) + EPSILON / v);
    const triples = data.bigrams.length / 3;
    this.rowStart = new Int32Array(v + 1);
    this.next = new Int32Array(triples);
    this.weight = new Float64Array(triples);
    this.backoff = new Float64Array(v).fill(1);
    for (let i = 0; i < triples; i++) this.rowStart[data.bigrams[3 * i] + 1]++;
    for (let i = 0; i < v; i++) this.rowStart[i + 1] += this.rowStart[i];
    for (let i = 0; i < triples; i++) {
      const [prev, next, count] = [data.bigrams[3 * i], data.bigrams[3 * i + 1], data.bigrams[3 * i + 2]];
      const discounted = Math.max(count - data.discount, 0) / data.historyCount[prev];
      this.next[i] = next;
      this.weight[i] = discounted;
      this.backoff[prev] -= discounted;
    }
  }

  /** The back-off unigram probability of a token, P_cont(w). */
  prior(token: number): number {
    return this.base[token] ?? 0;
  }

  /** Write P(· | prev) into `out` (length V). */
  fill(prev: number, out: Float64Array): void {
    const gamma = this.backoff[prev] ?? 1;
    for (let w = 0; w < out.length; w++) out[w] = gamma * this.base[w];
    for (let i = this.rowStart[prev]; i < this.rowStart[prev + 1]; i++) out[this.next[i]] += this.weight[i];
  }
}
