/**
 * Restricted next-token distributions from servers that return at most k logprobs
 * (Tang et al. 2024, "Privacy-preserving in-context learning with differentially private
 * few-shot generation", §4: logit bias to read probabilities of chosen tokens).
 *
 * The wanted tokens S are split into chunks of at most k that all contain one reference
 * token r. For each chunk every member gets the same logit bias (+100), which puts the
 * chunk into the returned top-k and leaves the ratios p(t)/p(r) unchanged, whether the
 * server reports logprobs before or after the bias. Combining the chunks through r gives
 * log p(t) − log p(r) for every t ∈ S; a softmax over S is the renormalised restriction.
 * Each prompt is its own request (remoteModel.ts: a server's result may depend on its batch).
 */
import { softmax } from '../../../../core/model/distribution';
import type { TokenDistribution, TokenId } from '../../../../core/model/languageModel';

export const LOGIT_BIAS = 100;

/** Chunks of at most `k` tokens, each starting with the reference token S[0]. */
export function biasChunks(tokens: readonly TokenId[], k: number): TokenId[][] {
  if (tokens.length <= k) return [[...tokens]];
  if (k < 2) throw new Error('the server returns fewer than 2 logprobs; cannot read a restricted distribution');
  const [reference, ...rest] = tokens;
  const chunks: TokenId[][] = [];
  for (let i = 0; i < rest.length; i += k - 1) chunks.push([reference, ...rest.slice(i, i + k - 1)]);
  return chunks;
}

/** One chunk's reply for one prompt: the logprob of each chunk token. */
export type ChunkLogprobs = Map<TokenId, number>;

/** Combine the chunk replies of one prompt into the restricted, renormalised distribution. */
export function combineChunks(tokens: readonly TokenId[], chunks: readonly TokenId[][], replies: readonly ChunkLogprobs[]): TokenDistribution {
  const relative = new Map<TokenId, number>();
  chunks.forEach((chunk, j) => {
    const reply = replies[j];
    const missing = chunk.filter((t) => !reply.has(t));
    if (missing.length) {
      throw new Error(
        `the server returned no logprob for token(s) ${missing.slice(0, 5).join(', ')} despite the logit bias; it may rank logprobs before applying logit_bias`,
      );
    }
    const base = reply.get(chunk[0])!;
    for (const t of chunk) if (!relative.has(t)) relative.set(t, reply.get(t)! - base);
  });
  return { tokens: [...tokens], probs: softmax(tokens.map((t) => relative.get(t)!)) };
}
