/** Logit-bias chunking for servers that cap logprobs (Tang et al.). */
import { describe, expect, it } from 'vitest';
import { softmax } from '../../../../core/model/distribution';
import { biasChunks, combineChunks } from '../../../../electron/services/model/openai/restrictedLogprobs';

describe('restricted logprobs through logit bias', () => {
  it('splits the set into chunks that share the reference token', () => {
    expect(biasChunks([1, 2, 3], 5)).toEqual([[1, 2, 3]]);
    expect(biasChunks([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([[1, 2, 3], [1, 4, 5], [1, 6, 7]]);
    expect(() => biasChunks([1, 2, 3], 1)).toThrow(/fewer than 2/);
  });

  it('recovers the renormalised restriction from chunk logprobs shifted by the bias', () => {
    const tokens = [10, 11, 12, 13, 14, 15, 16];
    const logits = [0.5, -1, 2, 0.1, -3, 1.2, 0.7];
    const truth = softmax(logits);
    const chunks = biasChunks(tokens, 3);
    // Each reply is a log-softmax over a larger vocabulary after adding the same bias to the chunk.
    const replies = chunks.map((chunk) => new Map(chunk.map((t) => [t, logits[tokens.indexOf(t)] + 100 - 104.2])));
    const dist = combineChunks(tokens, chunks, replies);
    expect(dist.tokens).toEqual(tokens);
    dist.probs.forEach((p, i) => expect(p).toBeCloseTo(truth[i], 12));
  });

  it('fails clearly when the server ignores the bias', () => {
    expect(() => combineChunks([1, 2], [[1, 2]], [new Map([[1, -0.1]])])).toThrow(/no logprob for token\(s\) 2/);
  });
});
