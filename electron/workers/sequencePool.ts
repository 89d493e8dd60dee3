/**
 * The parallel sequences of one llama.cpp context (node-llama-cpp creates it with one KV
 * stream per sequence, `kv_unified = false`): `size` general slots — teacher prompt i is
 * always evaluated in slot i (llamaEvaluation.ts) — and one more, dedicated to the PUBLIC
 * prompt that proposes the candidate tokens, which nothing else ever writes.
 *
 * Other work (label scoring, generation) takes the slot whose KV cache shares the longest
 * prefix with its prompt, and only the differing suffix is evaluated.
 */
import type { ControlledEvaluateIndexOutput, ControlledEvaluateInputItem, LlamaContext, LlamaContextSequence, Token } from 'node-llama-cpp';

export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export type NextOptions = NonNullable<Extract<ControlledEvaluateInputItem, unknown[]>[1]['generateNext']>;

export class SequencePool {
  private readonly sequences: LlamaContextSequence[];
  /** The public prompt's own sequence (the context's last one). */
  readonly publicSequence: LlamaContextSequence;
  /** Tokens evaluated (prefilled or decoded) since load, and llama.cpp evaluation calls. */
  readonly counters = { evaluatedTokens: 0, evaluations: 0 };

  /** `context` must have one sequence more than the slots wanted (the public one). */
  constructor(readonly context: LlamaContext) {
    if (context.totalSequences < 2) throw new Error('the context needs at least two sequences (one is the public prompt\'s)');
    const all = Array.from({ length: context.totalSequences }, () => context.getSequence());
    this.publicSequence = all.pop()!;
    this.sequences = all;
  }

  /** Slots for prompts (the public sequence not counted). */
  get size(): number {
    return this.sequences.length;
  }

  /** Slot `index` (teacher prompt `index` of a batched call). */
  slot(index: number): LlamaContextSequence {
    return this.sequences[index];
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
    this.counters.evaluatedTokens += input.length;
    this.counters.evaluations++;
    const results = await seq.controlledEvaluate(input);
    const byIndex = new Map<number, ControlledEvaluateIndexOutput>();
    results.forEach((r, j) => r && byIndex.set(from + j, r));
    return byIndex;
  }

  async dispose(): Promise<void> {
    for (const s of [...this.sequences, this.publicSequence]) if (!s.disposed) s.dispose();
    await this.context.dispose();
  }
}
