/**
 * The teachers of one privately answered query on llama.cpp (core/icl/answering): teacher j
 * lives in slot j of the sequence pool, its prompt is prefilled ONCE — alone, from an empty KV
 * cache — and then every decode holds one token of every teacher (generation: the next token;
 * label scoring: each label's tokens on top of the prompt, erased again after the label).
 *
 * llama.cpp's numerics depend on how many rows a decode holds, not on what the other rows
 * hold (llamaEvaluation.ts), so every decode holds either one prompt alone or the same rows
 * for every teacher of the chunk — a public count: an empty teacher (null prompt) and a
 * teacher whose answer is finished keep decoding padding. A teacher's answer is therefore a
 * function of its own prompt only, as when it is evaluated alone. More prompts than slots go
 * in chunks of `pool.size` (a public size).
 */
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import { argmax, logSumExp, sampleIndex, softmax } from '../../core/model/distribution';
import { firstStop } from '../../core/model/stopStrings';
import { cryptoRandom } from '../../core/random/cryptoRandom';
import type { RandomSource } from '../../core/random/randomSource';
import { seededRandom } from '../../core/random/seededRandom';
import type { LlamaEvaluator } from './llamaEvaluation';
import type { HostGeneration, WirePrompt } from './modelHostProtocol';
import type { SequencePool } from './sequencePool';

export interface GenerateEachRequest {
  prompts: (WirePrompt | null)[];
  maxTokens: number;
  temperature: number;
  seed: number | null;
  stop: string[];
}

interface Row {
  seq: LlamaContextSequence;
  /** The prompt's last token, not yet evaluated: the first decode's row. */
  last: number;
}

interface Answer {
  generated: number[];
  result: HostGeneration | null;
}

export class TeacherDecoder {
  constructor(
    private readonly model: LlamaModel,
    private readonly pool: SequencePool,
    private readonly evaluator: LlamaEvaluator,
  ) {}

  /** The row of an empty teacher: a public token. */
  private get padding(): number {
    return this.model.tokens.bos ?? this.model.tokens.eos ?? 0;
  }

  private async inChunks<P, R>(items: readonly P[], work: (chunk: readonly P[]) => Promise<R[]>): Promise<R[]> {
    const out: R[] = [];
    for (let start = 0; start < items.length; start += this.pool.size) out.push(...(await work(items.slice(start, start + this.pool.size))));
    return out;
  }

  /** Slot j emptied and prompt j (padding when null) prefilled in it alone, all but its last token. */
  private async prefilled(lists: readonly (number[] | null)[]): Promise<Row[]> {
    const rows: Row[] = [];
    for (const [j, tokens] of lists.entries()) {
      const seq = this.pool.slot(j);
      const prompt = tokens ?? [this.padding];
      if (seq.nextTokenIndex > 0) await seq.clearHistory();
      if (prompt.length > 1) await this.pool.evaluate(seq, prompt.slice(0, -1), 0, () => undefined);
      rows.push({ seq, last: prompt[prompt.length - 1] });
    }
    return rows;
  }

  /** One decode: `tokens[j]` appended to row j's sequence, every row together; the full logits after each. */
  private decode(rows: readonly Row[], tokens: readonly number[]): Promise<Float64Array[]> {
    return Promise.all(rows.map((row, j) => this.logitsAfter(row.seq, [tokens[j]]).then((all) => all[0])));
  }

  /** `tokens` appended to `seq` in one evaluation; the full logits after each of them. */
  private async logitsAfter(seq: LlamaContextSequence, tokens: readonly number[]): Promise<Float64Array[]> {
    const outputs = await this.pool.evaluate(seq, tokens, 0, () => ({ logits: true }));
    return tokens.map((_, i) => {
      const logits = outputs.get(i)?.next.logits;
      if (!logits) throw new Error('llama.cpp returned no logits');
      return this.evaluator.fullLogits(logits);
    });
  }

  /** Greedy (or sampled) generation for every prompt, as LlamaEvaluator.generate would give it alone. */
  async generateEach(request: GenerateEachRequest, signal: AbortSignal): Promise<(HostGeneration | null)[]> {
    if (request.maxTokens >= this.pool.contextSize) throw new RangeError(`${request.maxTokens} tokens do not fit a context of ${this.pool.contextSize}`);
    const random: RandomSource = request.seed === null ? cryptoRandom : seededRandom(request.seed);
    // Room for the answer: a prompt that would overflow is cut from the left, as a teacher's always is (llamaEvaluation.ts).
    const room = this.pool.contextSize - request.maxTokens + 1;
    const lists = request.prompts.map((p) => (p === null ? null : this.evaluator.fitted(this.evaluator.tokens(p), room)));
    return this.inChunks(lists, async (chunk) => {
      const rows = await this.prefilled(chunk);
      const answers: (Answer | null)[] = chunk.map((tokens) => (tokens === null ? null : { generated: [], result: null }));
      let next = rows.map((row) => row.last);
      for (let step = 0; step < request.maxTokens && answers.some((a) => a && !a.result); step++) {
        if (signal.aborted) throw new Error('cancelled');
        const logits = await this.decode(rows, next);
        next = logits.map((full, j) => {
          const answer = answers[j];
          if (!answer || answer.result) return argmax(full); // padding: any token, no random draw
          const token = request.temperature > 0 ? sampleIndex(softmax(full), request.temperature, random) : argmax(full);
          answer.result = this.extended(answer.generated, token, request.stop);
          return token;
        });
      }
      return answers.map((a) => a && (a.result ?? this.finished(a.generated, 'length')));
    });
  }

  private finished(generated: number[], finishReason: HostGeneration['finishReason'], text = this.model.detokenize(generated as Token[])): HostGeneration {
    return { text, tokens: generated, finishReason };
  }

  /** `token` appended to a generation; its result when that ends it (end of text, a stop string). */
  private extended(generated: number[], token: number, stop: readonly string[]): HostGeneration | null {
    if (this.model.isEogToken(token as Token)) return this.finished(generated, 'eos');
    generated.push(token);
    const text = this.model.detokenize(generated as Token[]);
    const at = firstStop(text, stop);
    return at === null ? null : this.finished(generated, 'stop', text.slice(0, at));
  }

  /** Each label's log-probability after every prompt (token log-probs summed), as LlamaEvaluator.scoreLabels gives it alone. */
  async scoreLabelsEach(prompts: readonly (string | null)[], labels: readonly string[]): Promise<(number[] | null)[]> {
    const continuations = prompts.map((p) => (p === null ? null : labels.map((label) => this.evaluator.continuation(p, label))));
    const filler = continuations.find((c) => c !== null);
    if (!filler) return prompts.map(() => null);
    const longest = Math.max(1, ...filler.map((c) => c.length));
    if (longest >= this.pool.contextSize) throw new RangeError(`a label of ${longest} tokens does not fit a context of ${this.pool.contextSize}`);
    const lists = prompts.map((p) => (p === null ? null : this.evaluator.fitted(this.evaluator.tokens(p), this.pool.contextSize - longest + 1)));
    const indices = prompts.map((_, j) => j);
    return this.inChunks(indices, async (chunk) => {
      const rows = await this.prefilled(chunk.map((j) => lists[j]));
      // Padding rows score the first prompt's continuations: the same row counts, results dropped.
      const tokensOf = (i: number, label: number) => (continuations[chunk[i]] ?? filler)[label];
      const after = await this.decode(rows, rows.map((row) => row.last));
      const scores = after.map((full, i) => labels.map((_, l) => (tokensOf(i, l).length === 0 ? 0 : full[tokensOf(i, l)[0]] - logSumExp(full))));
      for (let l = 0; l < labels.length; l++) {
        const rest = await Promise.all(rows.map((row, i) => this.labelRest(row.seq, tokensOf(i, l))));
        rest.forEach((logProb, i) => (scores[i][l] += logProb));
      }
      return chunk.map((j, i) => (continuations[j] === null ? null : scores[i]));
    });
  }

  /** Log-probability of a label's tokens after its first, evaluated on top of the prompt and erased again. */
  private async labelRest(seq: LlamaContextSequence, tokens: readonly number[]): Promise<number> {
    if (tokens.length <= 1) return 0;
    const start = seq.nextTokenIndex;
    const logits = await this.logitsAfter(seq, tokens.slice(0, -1));
    await seq.eraseContextTokenRanges([{ start, end: seq.nextTokenIndex }]);
    return logits.reduce((sum, full, i) => sum + full[tokens[i + 1]] - logSumExp(full), 0);
  }
}
