/**
 * LanguageModel: the one interface the ICL algorithms (core/icl) run on. Backends: the
 * reference learner (core/model/reference), llama.cpp in a child process and an
 * OpenAI-compatible HTTP server (electron/services/model). Each declares what it can do.
 *
 * Prompts are text or token ids. Token ids never include the BOS token: backends that
 * need one prepend it. Probabilities are float64 and sum to 1 (to rounding).
 */
import type { RandomSource } from '../random/randomSource';

export type TokenId = number;
export type Prompt = string | readonly TokenId[];

export type BackendName = 'reference' | 'llama.cpp' | 'openai-compatible';

export interface ModelInfo {
  backend: BackendName;
  /** Display name: the model file's name, the remote model id, "reference learner". */
  name: string;
  /** 'baseline' for the statistical reference learner, 'llm' for real language models. */
  kind: 'baseline' | 'llm';
  /** Null when the backend cannot tell (some remote servers). */
  vocabularySize: number | null;
  contextLength: number | null;
  embeddingDimension: number | null;
}

export interface ModelCapabilities {
  /** tokenize / detokenize / tokenText. */
  tokenize: boolean;
  /** Next-token distribution over the whole vocabulary. */
  fullDistribution: boolean;
  /** Next-token distribution restricted to a token set and renormalised. */
  restrictedDistribution: boolean;
  /** Many prompts evaluated together in one call (not a loop over prompts). */
  batchedEvaluation: boolean;
  generate: boolean;
  scoreLabels: boolean;
  embeddings: boolean;
  /**
   * A prompt's or text's result — an embedding, a generation, label scores — does not depend on
   * what it is sent with in one call (`embed`, `generateEach`, `scoreLabelsEach`): the llama.cpp
   * host embeds one text at a time and decodes each teacher in its own sequence with padded rows;
   * the reference learner computes each text alone. Absent or false: not known (a remote server
   * may batch on a GPU, where a batch-mate can change a result's rounding), so private inputs,
   * whose results must depend on their own unit alone (the aggregations' and DPM's
   * sensitivities), are sent one per call.
   */
  batchInvariant?: boolean;
  /** Most top tokens one request can return (servers cap logprobs); null = no cap. */
  maxTopTokens: number | null;
}

/** A probability vector: over the whole vocabulary (index = token id) or over `tokens`. */
export interface TokenDistribution {
  /** Absent: a full distribution, `probs[id]` for every id in the vocabulary. */
  readonly tokens?: readonly TokenId[];
  readonly probs: Float64Array;
}

export interface EvaluateOptions {
  /** Restrict to these tokens (distinct ids) and renormalise over exactly them. */
  restrictTo?: readonly TokenId[];
  signal?: AbortSignal;
  /**
   * The prompts continue those of the previous `continuing` call, in order: prompt i is the
   * previous prompt i plus the same new tokens (teachers kept for a whole demonstration). A
   * backend with a KV cache then evaluates only the new tokens, all prompts in one batch;
   * others ignore it (a server with prefix caching reuses the stable prefixes by itself).
   */
  continuing?: boolean;
}

export interface GenerateOptions {
  maxTokens: number;
  /** 0 (default) = greedy. */
  temperature?: number;
  /** Stop before the first occurrence of any of these strings (not included in the text). */
  stop?: readonly string[];
  /** Cancels generation; the text so far comes back with finishReason 'cancelled'. */
  signal?: AbortSignal;
  /** Randomness for temperature > 0 (default: the CSPRNG). */
  random?: RandomSource;
}

export interface Generation {
  text: string;
  tokens: TokenId[];
  finishReason: 'length' | 'stop' | 'eos' | 'cancelled';
}

export interface TopToken {
  token: TokenId;
  text: string;
  prob: number;
  /** A special token: 'end' ends the text (EOS, end of turn); 'control' is never text (BOS, padding, unknown). */
  special?: 'end' | 'control';
}

export interface LanguageModel {
  readonly info: ModelInfo;
  readonly capabilities: ModelCapabilities;

  tokenize(text: string): Promise<TokenId[]>;
  detokenize(tokens: readonly TokenId[]): Promise<string>;
  /** The text of one token (byte tokens of a multi-byte character may be partial). */
  tokenText(token: TokenId): Promise<string>;

  /** Next-token distribution after `prompt`: full, or restricted and renormalised. */
  nextTokenDistribution(prompt: Prompt, options?: EvaluateOptions): Promise<TokenDistribution>;
  /** The same for many prompts in one call (e.g. the M teacher prompts of one step). */
  nextTokenDistributions(prompts: readonly Prompt[], options?: EvaluateOptions): Promise<TokenDistribution[]>;
  /** The k most likely next tokens, most likely first. */
  topNextTokens(prompt: Prompt, k: number, signal?: AbortSignal): Promise<TopToken[]>;

  generate(prompt: Prompt, options: GenerateOptions): Promise<Generation>;

  /** Log-probability of each label as the continuation of `prompt` (token log-probs summed). */
  scoreLabels(prompt: string, labels: readonly string[], signal?: AbortSignal): Promise<number[]>;

  /**
   * Optional, for a backend with a KV cache: the teachers of one answered query together.
   * Prompt j is held in its own sequence j, prefilled once from an empty cache, then every
   * step decodes one token of every prompt in one batch; a null prompt keeps its place (its
   * sequence decodes padding, so every batch has one row per prompt — a public count) and
   * gives null. Greedy results equal `generate` one prompt at a time, up to llama.cpp's
   * last-digit differences between batch shapes. The call fails as a whole; callers fall
   * back to one prompt at a time. Private answering uses it only on a backend that declares
   * `capabilities.batchInvariant` (core/icl/answering/teacherCalls.ts).
   */
  generateEach?(prompts: readonly (Prompt | null)[], options: GenerateOptions): Promise<(Generation | null)[]>;
  /** `scoreLabels` for many prompts the same way: prompt j prefilled once in sequence j, then each label's tokens on top of it. */
  scoreLabelsEach?(prompts: readonly (string | null)[], labels: readonly string[], signal?: AbortSignal): Promise<(number[] | null)[]>;

  /** Unit-norm embedding vectors, one per text. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;

  /** Release resources (processes, contexts, connections). */
  close(): Promise<void>;
}

export class CapabilityError extends Error {
  override readonly name = 'CapabilityError';
  constructor(backend: string, what: string) {
    super(`the ${backend} backend cannot ${what}`);
  }
}
