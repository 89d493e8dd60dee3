/**
 * The parallel sequences of one llama.cpp context. The M teacher prompts of a synthesis
 * step are evaluated as M sequences at once (node-llama-cpp batches concurrent
 * evaluations into one llama_decode). Each prompt is given the sequence whose KV cache
 * shares the longest prefix with it, and only the differing suffix is evaluated — from
 * one synthesis step to the next a prompt grows by one token, so a step costs M tokens,
 * not M full prompts.
 */
import type { ControlledEvaluateIndexOutput, ControlledEvaluateInputItem, LlamaContext, LlamaContextSequence, Token } from 'node-llama-cpp';

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export type NextOptions = NonNullable<Extract<ControlledEvaluateInputItem, unknown[]>[1]['generateNext']>;

export class SequencePool {
  private readonly sequences: LlamaContextSequence[];

  constructor(readonly context: LlamaContext) {
    this.sequences = Array.from({ length: context.totalSequences }, () => context.getSequence());
  }

  get size(): number {
    return this.sequences.length;
  }

  get contextSize(): number {
    return this.context.contextSize;
  }

  /** Distinct sequences for up to `size` token lists, greedily maximising the reused prefixes. */
  assign(tokenLists: readonly (readonly number[])[]): LlamaContextSequence[] {
    if (tokenLists.length > this.sequences.length) throw new Error(`at most ${this.sequences.length} prompts at once`);
    const states = this.sequences.map((s) => s.contextTokens);
    const pairs: { prompt: number; seq: number; shared: number }[] = [];
    tokenLists.forEach((tokens, prompt) => states.forEach((state, seq) => pairs.push({ prompt, seq, shared: commonPrefix(tokens, state) })));
    pairs.sort((a, b) => b.shared - a.shared || a.prompt - b.prompt || a.seq - b.seq);
    const chosen = new Array<LlamaContextSequence | undefined>(tokenLists.length);
    const used = new Set<number>();
    for (const { prompt, seq } of pairs) {
      if (chosen[prompt] || used.has(seq)) continue;
      chosen[prompt] = this.sequences[seq];
      used.add(seq);
    }
    return chosen as LlamaContextSequence[];
  }

  /**
   * Trim `seq` to the longest prefix it shares with `tokens` (at most `keepAtMost` tokens,
   * so that the positions whose outputs are needed are evaluated again) and return the
   * index from which `tokens` must still be evaluated.
   */
  async prepare(seq: LlamaContextSequence, tokens: readonly number[], keepAtMost: number): Promise<number> {
    if (tokens.length > seq.contextSize) throw new Error(`the prompt has ${tokens.length} tokens; the context holds ${seq.contextSize} per sequence`);
    const keep = Math.min(commonPrefix(tokens, seq.contextTokens), keepAtMost);
    if (seq.nextTokenIndex > keep) await seq.eraseContextTokenRanges([{ start: keep, end: seq.nextTokenIndex }]);
    return keep;
  }

  /** Evaluate tokens[from…] on `seq`, asking for `outputs(index)` after the tokens that need one. */
  async evaluate(
    seq: LlamaContextSequence,
    tokens: readonly number[],
    from: number,
    outputs: (index: number) => NextOptions | undefined,
  ): Promise<Map<number, ControlledEvaluateIndexOutput>> {
    const input: ControlledEvaluateInputItem[] = [];
    for (let i = from; i < tokens.length; i++) {
      const next = outputs(i);
      input.push(next ? [tokens[i] as Token, { generateNext: next }] : (tokens[i] as Token));
    }
    const results = await seq.controlledEvaluate(input);
    const byIndex = new Map<number, ControlledEvaluateIndexOutput>();
    results.forEach((r, j) => r && byIndex.set(from + j, r));
    return byIndex;
  }

  async dispose(): Promise<void> {
    for (const s of this.sequences) if (!s.disposed) s.dispose();
    await this.context.dispose();
  }
}
