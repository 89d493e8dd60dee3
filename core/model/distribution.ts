/**
 * Probability-vector helpers shared by every backend: numerically stable softmax
 * (log-sum-exp in float64), restriction to a token set with renormalisation, top-k,
 * temperature and sampling. Sampling takes an injected RandomSource (callers default to
 * the CSPRNG, core/random/cryptoRandom).
 */
import type { RandomSource } from '../random/randomSource';
import type { TokenDistribution, TokenId } from './languageModel';

/** Softmax of `logits` in float64 (log-sum-exp; -Infinity logits get probability 0). */
export function softmax(logits: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
  const out = new Float64Array(logits.length);
  if (max === -Infinity) throw new Error('softmax of an all -Infinity vector');
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    const e = Math.exp(logits[i] - max);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < out.length; i++) out[i] /= sum;
  return out;
}

export function logSumExp(values: ArrayLike<number>): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += Math.exp(values[i] - max);
  return max + Math.log(sum);
}

/** Check a restriction set: non-empty, distinct, integer ids in [0, vocabularySize). */
export function checkRestriction(tokens: readonly TokenId[], vocabularySize: number | null): void {
  if (tokens.length === 0) throw new Error('restrictTo must name at least one token');
  const seen = new Set<number>();
  for (const t of tokens) {
    if (!Number.isInteger(t) || t < 0 || (vocabularySize !== null && t >= vocabularySize)) throw new Error(`token id ${t} is not in the vocabulary`);
    if (seen.has(t)) throw new Error(`token id ${t} appears twice in restrictTo`);
    seen.add(t);
  }
}

/** Restrict a full distribution to `tokens` and renormalise over exactly them. */
export function restrictDistribution(full: ArrayLike<number>, tokens: readonly TokenId[]): TokenDistribution {
  checkRestriction(tokens, full.length);
  const probs = new Float64Array(tokens.length);
  let sum = 0;
  tokens.forEach((t, i) => {
    probs[i] = full[t];
    sum += full[t];
  });
  if (!(sum > 0)) probs.fill(1 / tokens.length);
  else for (let i = 0; i < probs.length; i++) probs[i] /= sum;
  return { tokens: [...tokens], probs };
}

/** Probability of `token` under `dist` (0 if the token is outside a restricted distribution). */
export function probabilityOf(dist: TokenDistribution, token: TokenId): number {
  if (!dist.tokens) return dist.probs[token] ?? 0;
  const i = dist.tokens.indexOf(token);
  return i < 0 ? 0 : dist.probs[i];
}

/** The k most likely (token, probability) pairs, most likely first; ties by lower id. */
export function topK(dist: TokenDistribution, k: number): { token: TokenId; prob: number }[] {
  const idOf = (i: number) => (dist.tokens ? dist.tokens[i] : i);
  const order = Array.from({ length: dist.probs.length }, (_, i) => i);
  order.sort((a, b) => dist.probs[b] - dist.probs[a] || idOf(a) - idOf(b));
  return order.slice(0, Math.max(0, k)).map((i) => ({ token: idOf(i), prob: dist.probs[i] }));
}

/** Index of the largest probability (lowest index on ties). */
export function argmax(probs: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i] > probs[best]) best = i;
  return best;
}

/** Sample an index from `probs` at `temperature` (0 = argmax). */
export function sampleIndex(probs: ArrayLike<number>, temperature: number, random: RandomSource): number {
  if (!(temperature > 0)) return argmax(probs);
  const weights = new Float64Array(probs.length);
  let total = 0;
  let max = 0;
  for (let i = 0; i < probs.length; i++) if (probs[i] > max) max = probs[i];
  for (let i = 0; i < probs.length; i++) {
    weights[i] = probs[i] > 0 ? Math.pow(probs[i] / max, 1 / temperature) : 0;
    total += weights[i];
  }
  let u = random.nextFloat() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i];
    if (u < 0) return i;
  }
  return argmax(probs);
}
