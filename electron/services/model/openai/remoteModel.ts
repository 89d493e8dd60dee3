/**
 * LanguageModel over an OpenAI-compatible server: completions with logprobs (restricted
 * distributions via logit bias, top tokens, one-token label scores from the top logprobs), echo
 * for other label scores, embeddings, and the vLLM / llama.cpp-server /tokenize and /detokenize endpoints
 * where the server has them.
 * No full-vocabulary distributions: servers return only the top few logprobs, and how few
 * is found out at connect and whenever a server refuses or shortens a reply (logprobCap.ts).
 */
import { checkRestriction } from '../../../../core/model/distribution';
import { specialByText } from '../../../../core/model/specialTokens';
import {
  CapabilityError,
  type EvaluateOptions,
  type GenerateOptions,
  type Generation,
  type LanguageModel,
  type ModelCapabilities,
  type ModelInfo,
  type Prompt,
  type TokenDistribution,
  type TokenId,
  type TopToken,
} from '../../../../core/model/languageModel';
import { ADDED_TOKENS_MARGIN, tailWithin, tokenBound } from '../../../../core/model/tokenBound';
import { LogprobShortfall, withLogprobCap } from './logprobCap';
import type { OpenAiClient } from './openaiClient';
import { biasChunks, combineChunks, LOGIT_BIAS, type ChunkLogprobs } from './restrictedLogprobs';

interface CompletionChoice {
  index: number;
  text: string;
  finish_reason?: string | null;
  logprobs?: {
    tokens?: string[];
    token_logprobs?: (number | null)[];
    top_logprobs?: (Record<string, number> | null)[];
    text_offset?: number[];
  } | null;
}

interface CompletionResponse {
  choices: CompletionChoice[];
}

type WirePrompt = string | number[];

const TOKEN_ID_KEY = /^token_id:(\d+)$/;

type TopEntries = [key: string, logprob: number][];

/** A completion's top logprobs at its first generated position, as returned (keys unresolved). */
const firstTop = (choice: CompletionChoice): TopEntries => Object.entries(choice.logprobs?.top_logprobs?.[0] ?? {});

/** Whether some key is a token's text rather than "token_id:N" (servers other than vLLM). */
const hasTextKeys = (top: TopEntries) => top.some(([key]) => !TOKEN_ID_KEY.test(key));

/** The logprobs of `wanted` tokens among `top`: keys "token_id:N" (vLLM), else token texts mapped by `byText`. */
function wantedLogprobs(top: TopEntries, wanted: readonly TokenId[], byText: ReadonlyMap<string, TokenId>): Map<TokenId, number> {
  const read = new Map<TokenId, number>();
  for (const [key, logprob] of top) {
    const id = TOKEN_ID_KEY.exec(key);
    const token = id ? Number(id[1]) : byText.get(key);
    if (token !== undefined && wanted.includes(token)) read.set(token, logprob);
  }
  return read;
}

/** A completion that only echoes the prompt's logprobs (label scoring). */
const ECHO_SCORING = { max_tokens: 1, temperature: 0, echo: true, logprobs: 1, return_tokens_as_token_ids: false };

function wire(prompt: Prompt): WirePrompt {
  return typeof prompt === 'string' ? prompt : [...prompt];
}

/** Sampling (temperature > 0) from a seeded, non-cryptographic source: each request gets a seed from it. */
const seededSampling = (options: GenerateOptions) => (options.temperature ?? 0) > 0 && options.random !== undefined && !options.random.cryptographic;

/** A request's seed: drawn only for seeded sampling (a greedy request needs none, so none is drawn). */
const requestSeed = (options: GenerateOptions) => (seededSampling(options) ? options.random!.nextUint32() : undefined);

export class RemoteModel implements LanguageModel {
  readonly info: ModelInfo;
  private readonly texts = new Map<TokenId, string>();
  private readonly labelTokenCache = new Map<string, TokenId[]>();

  private constructor(
    readonly client: OpenAiClient,
    private readonly hasTokenizer: boolean,
    contextLength: number | null,
  ) {
    this.info = { backend: 'openai-compatible', name: client.model, kind: 'llm', vocabularySize: null, contextLength, embeddingDimension: null };
  }

  get capabilities(): ModelCapabilities {
    return {
      tokenize: this.hasTokenizer,
      fullDistribution: false,
      restrictedDistribution: true,
      batchedEvaluation: true,
      generate: true,
      scoreLabels: true,
      embeddings: true,
      // A GPU server may batch the prompts / texts of one request (and concurrent requests): a
      // result may depend on its batch-mates, so private inputs go one per request.
      batchInvariant: false,
      maxTopTokens: this.client.maxLogprobs,
    };
  }

  /** Probe the server (model list, logprob cap, tokenizer endpoint) and return a model for it. */
  static async connect(client: OpenAiClient, signal?: AbortSignal): Promise<RemoteModel> {
    const models = await client.get<{ data?: { id: string; max_model_len?: number | null }[] }>('/models', signal);
    const entry = models.data?.find((m) => m.id === client.model);
    if (models.data && !entry) throw new Error(`the server does not serve model "${client.model}" (it serves: ${models.data.map((m) => m.id).join(', ')})`);
    await withLogprobCap(client, async (cap) => {
      const reply = await client.post<CompletionResponse>('/completions', { prompt: 'The', max_tokens: 1, temperature: 0, logprobs: cap }, signal);
      const returned = Object.keys(reply.choices?.[0]?.logprobs?.top_logprobs?.[0] ?? {}).length;
      if (returned < cap) throw new LogprobShortfall(returned, cap);
    });
    let hasTokenizer = true;
    try {
      await client.postRoot('/tokenize', { prompt: 'a', content: 'a', add_special_tokens: false, add_special: false }, signal);
    } catch {
      hasTokenizer = false;
    }
    return new RemoteModel(client, hasTokenizer, entry?.max_model_len ?? null);
  }

  private requireTokenizer(): void {
    if (!this.hasTokenizer) throw new CapabilityError('openai-compatible', 'tokenize: the server has no /tokenize endpoint');
  }

  async tokenize(text: string): Promise<TokenId[]> {
    this.requireTokenizer();
    const reply = await this.client.postRoot<{ tokens: number[] }>('/tokenize', { prompt: text, content: text, add_special_tokens: false, add_special: false });
    return reply.tokens;
  }

  async detokenize(tokens: readonly TokenId[]): Promise<string> {
    this.requireTokenizer();
    const reply = await this.client.postRoot<{ prompt?: string; content?: string }>('/detokenize', { tokens: [...tokens] });
    return reply.prompt ?? reply.content ?? '';
  }

  async tokenText(token: TokenId): Promise<string> {
    if (!this.texts.has(token)) this.texts.set(token, await this.detokenize([token]));
    return this.texts.get(token)!;
  }

  /** Text → id for a chunk's tokens, for servers that key logprobs by token text. */
  private async textCandidates(chunk: readonly TokenId[]): Promise<Map<string, TokenId>> {
    if (!this.hasTokenizer) throw new Error('the server keys logprobs by token text and has no /detokenize to map them to ids');
    const candidates = new Map<string, TokenId>();
    for (const t of chunk) {
      const text = await this.tokenText(t);
      if (candidates.has(text)) throw new Error(`tokens ${candidates.get(text)} and ${t} have the same text; the server must return token ids (vLLM: return_tokens_as_token_ids)`);
      candidates.set(text, t);
    }
    return candidates;
  }

  private async completions(prompts: readonly Prompt[], body: Record<string, unknown>, signal?: AbortSignal): Promise<CompletionChoice[]> {
    const reply = await this.client.post<CompletionResponse>('/completions', { prompt: prompts.map(wire), ...body }, signal);
    const choices = [...(reply.choices ?? [])].sort((a, b) => a.index - b.index);
    if (choices.length !== prompts.length) throw new Error(`the server answered ${choices.length} completions for ${prompts.length} prompts`);
    return choices;
  }

  async nextTokenDistribution(prompt: Prompt, options: EvaluateOptions = {}): Promise<TokenDistribution> {
    return (await this.nextTokenDistributions([prompt], options))[0];
  }

  async nextTokenDistributions(prompts: readonly Prompt[], options: EvaluateOptions = {}): Promise<TokenDistribution[]> {
    const restrictTo = options.restrictTo;
    if (!restrictTo) throw new CapabilityError('openai-compatible', 'return a full next-token distribution (servers return only the top logprobs); pass restrictTo');
    checkRestriction(restrictTo, null);
    if (prompts.length === 0) return [];
    const fitted = await this.fitted(prompts);
    return withLogprobCap(this.client, (cap) => this.restricted(fitted, restrictTo, biasChunks(restrictTo, cap), options.signal));
  }

  /**
   * Prompts cut from the left to fit the server's context, as the llama.cpp backend does: a
   * DP step must not fail on the length of a sampled private record. Room: the context less
   * one position for a BOS the server may add and one for the answer. A prompt whose token
   * bound (core/model/tokenBound.ts) fits with a margin is sent as it is. Otherwise, with /tokenize it is
   * tokenized and, if it does not fit, sent as its last token ids (without BOS: the server
   * adds none to ids); without /tokenize it is sent as its longest suffix whose bound fits.
   * Without a known context length, prompts are sent as they are.
   */
  private async fitted(prompts: readonly Prompt[]): Promise<Prompt[]> {
    const room = (this.info.contextLength ?? 0) - 2;
    if (room < 1) return [...prompts];
    const textRoom = Math.max(room - ADDED_TOKENS_MARGIN, 0);
    return Promise.all(
      prompts.map(async (prompt) => {
        if (typeof prompt === 'string' && tokenBound(prompt) <= textRoom) return prompt;
        if (typeof prompt === 'string' && !this.hasTokenizer) return tailWithin(prompt, textRoom);
        const tokens = typeof prompt === 'string' ? await this.tokenize(prompt) : prompt;
        return tokens.length <= room ? prompt : tokens.slice(tokens.length - room);
      }),
    );
  }

  /** One request per chunk for all prompts; a reply short of the chunk's size means the cap is lower. */
  private async restricted(prompts: readonly Prompt[], restrictTo: readonly TokenId[], chunks: TokenId[][], signal?: AbortSignal): Promise<TokenDistribution[]> {
    const replies: ChunkLogprobs[][] = prompts.map(() => []);
    for (const chunk of chunks) {
      const body = {
        max_tokens: 1,
        temperature: 0,
        logprobs: chunk.length,
        logit_bias: Object.fromEntries(chunk.map((t) => [String(t), LOGIT_BIAS])),
        return_tokens_as_token_ids: true,
      };
      // One request per prompt, one at a time: the prompts are teachers' private samples, and a
      // server's result may depend on what it batches together (capabilities.batchInvariant), so
      // one unit could otherwise move another teacher's distribution.
      const choices: CompletionChoice[] = [];
      for (const prompt of prompts) choices.push(...(await this.completions([prompt], body, signal)));
      const tops = choices.map(firstTop);
      const candidates = tops.some(hasTextKeys) ? await this.textCandidates(chunk) : new Map<string, TokenId>();
      tops.forEach((top, i) => {
        const reply: ChunkLogprobs = wantedLogprobs(top, chunk, candidates);
        if (reply.size < chunk.length && top.length < chunk.length) throw new LogprobShortfall(top.length, chunk.length);
        replies[i].push(reply);
      });
    }
    return replies.map((r) => combineChunks(restrictTo, chunks, r));
  }

  async topNextTokens(prompt: Prompt, k: number, signal?: AbortSignal): Promise<TopToken[]> {
    const [choice] = await withLogprobCap(this.client, (cap) =>
      this.completions([prompt], { max_tokens: 1, temperature: 0, logprobs: Math.min(k, cap), return_tokens_as_token_ids: true }, signal),
    );
    const n = Math.min(k, this.client.maxLogprobs);
    const top = Object.entries(choice.logprobs?.top_logprobs?.[0] ?? {}).sort((a, b) => b[1] - a[1]);
    // Each token's id and text looked up together, not one round trip after another: a
    // tokenizer's answer does not depend on what else it is asked at the same time.
    return Promise.all(
      top.slice(0, n).map(async ([key, logprob]): Promise<TopToken> => {
        const id = TOKEN_ID_KEY.exec(key);
        let token = id ? Number(id[1]) : -1;
        if (!id && this.hasTokenizer) {
          const tokens = await this.tokenize(key);
          if (tokens.length === 1) token = tokens[0];
        }
        const text = id ? await this.tokenText(token).catch(() => key) : key;
        const special = token < 0 ? 'control' : specialByText(text); // a token without an id cannot be evaluated
        return { token, text, prob: Math.exp(logprob), ...(special && { special }) };
      }),
    );
  }

  /** A completion request's generation settings (a seed only for a seeded, non-cryptographic source). */
  private generationBody(options: GenerateOptions, seed: number | undefined): Record<string, unknown> {
    return { max_tokens: options.maxTokens, temperature: options.temperature ?? 0, stop: options.stop?.length ? [...options.stop] : undefined, seed };
  }

  private async generation(choice: CompletionChoice): Promise<Generation> {
    return { text: choice.text, tokens: this.hasTokenizer ? await this.tokenize(choice.text) : [], finishReason: choice.finish_reason === 'stop' ? 'stop' : 'length' };
  }

  async generate(prompt: Prompt, options: GenerateOptions): Promise<Generation> {
    const seed = requestSeed(options);
    try {
      const [choice] = await this.completions([prompt], this.generationBody(options, seed), options.signal);
      return await this.generation(choice);
    } catch (error) {
      if (options.signal?.aborted) return { text: '', tokens: [], finishReason: 'cancelled' };
      throw error;
    }
  }

  /**
   * Each label's log-probability after the prompt. Where every label is one token there, it is
   * read as the prompt's next token (nextTokenLogprobs), from one completion of the prompt alone
   * that a prefix-caching server serves from its cache. Otherwise, and for a label not read there,
   * the label is echoed after the prompt and the logprobs of the tokens that overlap it summed: a
   * server computes each echoed prompt afresh (vLLM reads no prefix cache for prompt logprobs), so
   * each echoed label costs a prefill of the whole prompt. A failed request fails the call: no
   * prompt is sent again, except the read refused for its logprob count (a server that lowered
   * its cap since connecting: withLogprobCap asks once more at the lower cap).
   */
  async scoreLabels(prompt: string, labels: readonly string[], signal?: AbortSignal): Promise<number[]> {
    if (labels.length === 0) return [];
    const tokens = await this.singleTokenLabels(prompt, labels);
    const scores: (number | undefined)[] = tokens ? await this.nextTokenLogprobs(prompt, tokens, signal) : labels.map(() => undefined);
    const echoed = labels.filter((_, i) => scores[i] === undefined);
    if (echoed.length === 0) return scores as number[];
    const echoScores = this.labelScores(prompt, echoed, await this.completions(echoed.map((l) => prompt + l), ECHO_SCORING, signal));
    let next = 0;
    return scores.map((score) => score ?? echoScores[next++]);
  }

  /** A label's tokens alone (cached): a label of several tokens is never one token after a prompt, so no prompt need be tokenized for it. */
  private async labelTokens(label: string): Promise<TokenId[]> {
    let tokens = this.labelTokenCache.get(label);
    if (!tokens) this.labelTokenCache.set(label, (tokens = await this.tokenize(label)));
    return tokens;
  }

  /** The token each label adds to `prompt`'s tokens, or null where a label is not exactly one more token there (or the server cannot tokenize). */
  private async singleTokenLabels(prompt: string, labels: readonly string[]): Promise<TokenId[] | null> {
    if (!this.hasTokenizer || (await Promise.all(labels.map((l) => this.labelTokens(l)))).some((t) => t.length !== 1)) return null;
    // One teacher's texts only (the caller scores one prompt): tokenizing them together mixes no units.
    const [base, ...joint] = await Promise.all([prompt, ...labels.map((l) => prompt + l)].map((text) => this.tokenize(text)));
    const extendsBase = (ids: readonly TokenId[]) => ids.length === base.length + 1 && base.every((t, i) => ids[i] === t);
    return joint.every(extendsBase) ? joint.map((ids) => ids[base.length]) : null;
  }

  /**
   * Each token's logprob as the prompt's next token, read from the top logprobs of one completion
   * of the prompt alone (a prefix-caching server serves it from its cache); undefined: not among
   * them, or the server keys them by text. Text keys are not trusted: they are a JSON object's
   * keys, so two tokens with one text (e.g. "▁spam" and "spam") reach the client as one key with
   * either token's logprob. The logprobs must be the model's own: no penalty may reshape them
   * (vLLM's defaults are these neutral values; they are sent so that a server's others do not apply).
   */
  private async nextTokenLogprobs(prompt: string, tokens: readonly TokenId[], signal?: AbortSignal): Promise<(number | undefined)[]> {
    const body = { max_tokens: 1, temperature: 0, return_tokens_as_token_ids: true, repetition_penalty: 1, presence_penalty: 0, frequency_penalty: 0 };
    const [choice] = await withLogprobCap(this.client, (cap) => this.completions([prompt], { ...body, logprobs: cap }, signal));
    const top = firstTop(choice);
    const read = hasTextKeys(top) ? new Map<TokenId, number>() : wantedLogprobs(top, tokens, new Map());
    return tokens.map((t) => read.get(t));
  }

  private labelScores(prompt: string, labels: readonly string[], choices: readonly CompletionChoice[]): number[] {
    return choices.map((choice, i) => {
      const { token_logprobs: logprobs, text_offset: offsets } = choice.logprobs ?? {};
      if (!logprobs || !offsets || offsets.length === 0) throw new Error('the server did not echo prompt logprobs (echo: true with logprobs)');
      // The window is anchored at the end: the last offset is the generated token's, where the
      // server's own text of prompt + label ends. Offsets from the start drift on real servers (a
      // BOS text such as "<|begin_of_text|>" counted in, each byte token of a split character
      // counted as one); the label's length is in code points, as vLLM and OpenAI count.
      const end = offsets[offsets.length - 1];
      const start = end - [...labels[i]].length;
      let sum = 0;
      offsets.forEach((offset, j) => {
        // A token inside the label, or one that begins in the prompt and runs into it (a label
        // merged with the prompt's end, e.g. "Label: " + "spam" → "Label:" + " spam").
        const overlaps = offset >= start || (offsets[j + 1] ?? Infinity) > start;
        if (!(offset < end && overlaps)) return;
        const logprob = logprobs[j];
        // No logprob (the sequence's first token) is no evidence: never score it as certainty.
        if (typeof logprob !== 'number') throw new Error('the server gave no logprob for a label token (echo)');
        sum += logprob;
      });
      return sum;
    });
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const reply = await this.client.post<{ data: { index: number; embedding: number[] }[] }>('/embeddings', { input: [...texts] }, signal);
    return [...reply.data]
      .sort((a, b) => a.index - b.index)
      .map(({ embedding }) => {
        const norm = Math.sqrt(embedding.reduce((a, x) => a + x * x, 0));
        const unit = new Float32Array(embedding.length);
        if (norm > 0) embedding.forEach((x, j) => (unit[j] = x / norm));
        else unit[0] = 1;
        return unit;
      });
  }

  async close(): Promise<void> {}
}
