/**
 * Evaluation on a loaded llama.cpp model (inside the model host process): next-token
 * distributions (full: softmax of every logit in float64; restricted: softmax of the
 * requested logits, which is exactly the renormalised restriction), top tokens, label
 * log-probabilities (log-softmax of the full logits, summed over the label's tokens)
 * and generation (greedy = argmax, ties to the lower id; sampling in JS).
 */
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import { argmax, logSumExp, sampleIndex, softmax } from '../../core/model/distribution';
import { cryptoRandom } from '../../core/random/cryptoRandom';
import { seededRandom } from '../../core/random/seededRandom';
import type { RandomSource } from '../../core/random/randomSource';
import { firstStop } from '../../core/model/stopStrings';
import type { HostDistribution, HostGeneration, HostTopToken, WirePrompt } from './modelHostProtocol';
import { commonPrefix, type SequencePool } from './sequencePool';

export class LlamaEvaluator {
  constructor(
    private readonly model: LlamaModel,
    private readonly pool: SequencePool,
    readonly vocabularySize: number,
  ) {}

  tokens(prompt: WirePrompt): number[] {
    const tokens = typeof prompt === 'string' ? (this.model.tokenize(prompt) as number[]) : prompt;
    for (const t of tokens) if (!Number.isInteger(t) || t < 0 || t >= this.vocabularySize) throw new Error(`token id ${t} is not in the vocabulary`);
    const bos = this.model.tokens.bos;
    if (tokens.length === 0 && bos === null) throw new Error('empty prompt (this model has no BOS token)');
    return bos !== null && this.model.tokens.shouldPrependBosToken && tokens[0] !== bos ? [bos, ...tokens] : [...tokens];
  }

  fullLogits(logits: Map<Token, number>): Float64Array {
    const out = new Float64Array(this.vocabularySize).fill(-Infinity);
    for (const [t, l] of logits) if (t < out.length) out[t] = l;
    return out;
  }

  /**
   * The prompt cut from the left to fit one sequence, BOS kept. A DP token step evaluates
   * prompts built from sampled private records: failing the step on a long record would
   * make the job's outcome (and its error text) depend on private data, so the oldest
   * tokens are dropped instead — a per-teacher change the mechanism's sensitivity covers.
   * `size` leaves room for tokens still to come (a generation's).
   */
  fitted(tokens: number[], size = this.pool.contextSize): number[] {
    if (tokens.length <= size) return tokens;
    const bos = this.model.tokens.bos;
    return bos !== null && tokens[0] === bos ? [bos, ...tokens.slice(tokens.length - size + 1)] : tokens.slice(tokens.length - size);
  }

  /** The next-token distribution after `tokens` on `seq`, evaluating tokens[from…] (full, or restricted to `restrictTo`). */
  private async next(seq: LlamaContextSequence, tokens: readonly number[], from: number, restrictTo?: readonly number[]): Promise<HostDistribution> {
    const last = tokens.length - 1;
    const outputs = await this.pool.evaluate(seq, tokens, from, (j) =>
      j === last ? { logits: restrictTo ? { filter: { tokens: restrictTo as Token[] } } : true } : undefined,
    );
    const logits = outputs.get(last)?.next.logits;
    if (!logits) throw new Error('llama.cpp returned no logits');
    if (!restrictTo) return { probs: softmax(this.fullLogits(logits)) };
    const picked = restrictTo.map((t) => {
      const l = logits.get(t as Token);
      if (l === undefined) throw new Error(`llama.cpp returned no logit for token ${t}`);
      return l;
    });
    return { tokens: [...restrictTo], probs: softmax(picked) };
  }

  /** `tokens` evaluated alone in `seq`, from an empty KV cache. */
  private async fresh(seq: LlamaContextSequence, tokens: readonly number[], restrictTo?: readonly number[]): Promise<HostDistribution> {
    if (seq.nextTokenIndex > 0) await seq.clearHistory();
    return this.next(seq, tokens, 0, restrictTo);
  }

  /**
   * Next-token distributions for many prompts (each cut to fit the context). Prompt j is
   * evaluated in slot j mod `pool.size`, and what its vector is computed from never depends
   * on the other prompts (issue 20, item 3). llama.cpp's numerics depend on how many rows a
   * decode holds (measured on an F32 model: a teacher's logits differ in the 7th digit
   * between 1-, 2- and 3-row decodes, while the other rows' content changes nothing), so every
   * decode holds either one prompt's tokens alone or one token of every prompt:
   *   - by default every prompt is evaluated alone, from an empty KV cache (no KV computed
   *     for another prompt is reused);
   *   - `continuing` (teachers kept for a whole demonstration): slot j keeps its KV when what
   *     it holds is a prefix of prompt j (else it is emptied); the tokens it lacks but the
   *     last are evaluated in slot j alone, then the last token of EVERY prompt is decoded in
   *     one batch — a decode of (number of prompts) rows, a public size, whether or not some
   *     slot had to be refilled (a cut prompt, another request in between).
   */
  async distributions(prompts: readonly WirePrompt[], restrictTo?: readonly number[], continuing = false): Promise<HostDistribution[]> {
    const lists = prompts.map((p) => this.fitted(this.tokens(p)));
    if (!continuing) {
      const out: HostDistribution[] = [];
      for (const [j, tokens] of lists.entries()) out.push(await this.fresh(this.pool.slot(j % this.pool.size), tokens, restrictTo));
      return out;
    }
    if (lists.length > this.pool.size) throw new Error(`at most ${this.pool.size} continuing prompts (the loaded context's sequences)`);
    for (const [j, tokens] of lists.entries()) {
      const seq = this.pool.slot(j);
      const held = seq.contextTokens;
      const intact = held.length < tokens.length && commonPrefix(held, tokens) === held.length;
      if (!intact && held.length > 0) await seq.clearHistory();
      const from = intact ? held.length : 0;
      if (from < tokens.length - 1) await this.pool.evaluate(seq, tokens.slice(0, -1), from, () => undefined);
    }
    return Promise.all(lists.map((tokens, j) => this.next(this.pool.slot(j), tokens, tokens.length - 1, restrictTo)));
  }

  /**
   * The k most likely tokens after a PUBLIC prompt, evaluated alone in the public prompt's
   * own sequence (reusing what it holds: public prompts only), so the candidate set never
   * depends on what the teacher sequences hold. Special tokens marked from the vocabulary's types.
   */
  async topTokens(prompt: WirePrompt, k: number): Promise<HostTopToken[]> {
    const tokens = this.fitted(this.tokens(prompt));
    const seq = this.pool.publicSequence;
    const dist = await this.next(seq, tokens, await this.pool.prepare(seq, tokens, tokens.length - 1));
    const order = Array.from(dist.probs.keys()).sort((a, b) => dist.probs[b] - dist.probs[a] || a - b);
    return order.slice(0, k).map((token) => {
      const special = this.model.isEogToken(token as Token) ? 'end' : this.model.isSpecialToken(token as Token) ? 'control' : undefined;
      return { token, prob: dist.probs[token], ...(special && { special }) };
    });
  }

  /** Continuation tokens of `label` after `prompt` (as tokenised together when they align). */
  continuation(prompt: string, label: string): number[] {
    const alone = this.model.tokenize(prompt) as number[];
    const whole = this.model.tokenize(prompt + label) as number[];
    if (alone.every((t, i) => whole[i] === t)) return whole.slice(alone.length);
    return this.model.tokenize(label, false, 'trimLeadingSpace') as number[];
  }

  async scoreLabels(prompt: string, labels: readonly string[]): Promise<number[]> {
    const base = this.tokens(prompt);
    const jobs = labels.map((label) => ({ tokens: [...base, ...this.continuation(prompt, label)] }));
    const scores: number[] = [];
    for (let start = 0; start < jobs.length; start += this.pool.size) {
      const chunk = jobs.slice(start, start + this.pool.size);
      const seqs = this.pool.assign(chunk.map((j) => j.tokens));
      const results = await Promise.all(
        chunk.map(async ({ tokens }, i) => {
          if (tokens.length === base.length) return 0;
          const from = await this.pool.prepare(seqs[i], tokens, base.length - 1);
          const outputs = await this.pool.evaluate(seqs[i], tokens.slice(0, -1), from, (j) => (j >= base.length - 1 ? { logits: true } : undefined));
          let logProb = 0;
          for (let j = base.length - 1; j < tokens.length - 1; j++) {
            const logits = outputs.get(j)?.next.logits;
            if (!logits) throw new Error('llama.cpp returned no logits');
            const full = this.fullLogits(logits);
            logProb += full[tokens[j + 1]] - logSumExp(full);
          }
          return logProb;
        }),
      );
      scores.push(...results);
    }
    return scores;
  }

  async generate(
    request: { prompt: WirePrompt; maxTokens: number; temperature: number; seed: number | null; stop: string[] },
    signal: AbortSignal,
  ): Promise<HostGeneration> {
    const tokens = this.tokens(request.prompt);
    const [seq] = this.pool.assign([tokens]);
    let from = await this.pool.prepare(seq, tokens, tokens.length - 1);
    let pending = tokens;
    const random: RandomSource = request.seed === null ? cryptoRandom : seededRandom(request.seed);
    const generated: number[] = [];
    const finish = (finishReason: HostGeneration['finishReason'], text = this.model.detokenize(generated as Token[])): HostGeneration => ({ text, tokens: generated, finishReason });
    for (let i = 0; i < request.maxTokens; i++) {
      if (signal.aborted) return finish('cancelled');
      if (pending.length > this.pool.contextSize) return finish('length');
      const last = pending.length - 1;
      const outputs = await this.pool.evaluate(seq, pending, from, (j) => (j === last ? { logits: true } : undefined));
      const logits = outputs.get(last)?.next.logits;
      if (!logits) throw new Error('llama.cpp returned no logits');
      const full = this.fullLogits(logits);
      const token = request.temperature > 0 ? sampleIndex(softmax(full), request.temperature, random) : argmax(full);
      if (this.model.isEogToken(token as Token)) return finish('eos');
      generated.push(token);
      const text = this.model.detokenize(generated as Token[]);
      const stop = firstStop(text, request.stop);
      if (stop !== null) return finish('stop', text.slice(0, stop));
      pending = [...pending, token];
      from = pending.length - 1;
    }
    return finish('length');
  }
}
