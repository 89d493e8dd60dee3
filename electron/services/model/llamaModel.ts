/**
 * LanguageModel for a GGUF loaded into llama.cpp in the model host process: every call
 * is a request to the host (electron/workers/llamaEngine.ts). Prompts are tokenised by
 * the model itself; BOS is prepended there when the model asks for it.
 */
import { checkRestriction } from '../../../core/model/distribution';
import type { GgufModelMetadata } from '../../../core/model/gguf/ggufSummary';
import type {
  EvaluateOptions,
  GenerateOptions,
  Generation,
  LanguageModel,
  ModelCapabilities,
  ModelInfo,
  Prompt,
  TokenDistribution,
  TokenId,
  TopToken,
} from '../../../core/model/languageModel';
import type { EvaluationCounters, HostDistribution, HostGeneration, HostTopToken, LoadedModel, WirePrompt } from '../../workers/modelHostProtocol';
import type { ModelHostClient } from './modelHostClient';

function wire(prompt: Prompt): WirePrompt {
  return typeof prompt === 'string' ? prompt : [...prompt];
}

export class LlamaModel implements LanguageModel {
  readonly info: ModelInfo;
  readonly capabilities: ModelCapabilities = {
    tokenize: true,
    fullDistribution: true,
    restrictedDistribution: true,
    batchedEvaluation: true,
    generate: true,
    scoreLabels: true,
    embeddings: true,
    batchInvariant: true,
    maxTopTokens: null,
  };
  private readonly texts = new Map<TokenId, string>();
  private closed = false;

  constructor(
    private readonly host: ModelHostClient,
    readonly loaded: LoadedModel,
    readonly metadata: GgufModelMetadata,
    name: string,
  ) {
    this.info = {
      backend: 'llama.cpp',
      name,
      kind: 'llm',
      vocabularySize: loaded.vocabularySize,
      contextLength: loaded.contextSize,
      embeddingDimension: loaded.embeddingDimension,
    };
  }

  private request<T>(request: Parameters<ModelHostClient['request']>[0], signal?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(new Error('this model was unloaded'));
    return this.host.request<T>(request, { signal });
  }

  tokenize(text: string): Promise<TokenId[]> {
    return this.request({ op: 'tokenize', text });
  }

  detokenize(tokens: readonly TokenId[]): Promise<string> {
    return this.request({ op: 'detokenize', tokens: [...tokens] });
  }

  async tokenTexts(tokens: readonly TokenId[]): Promise<string[]> {
    const missing = [...new Set(tokens.filter((t) => !this.texts.has(t)))];
    if (missing.length) {
      const texts = await this.request<string[]>({ op: 'tokenTexts', tokens: missing });
      missing.forEach((t, i) => this.texts.set(t, texts[i]));
    }
    return tokens.map((t) => this.texts.get(t)!);
  }

  async tokenText(token: TokenId): Promise<string> {
    return (await this.tokenTexts([token]))[0];
  }

  async nextTokenDistribution(prompt: Prompt, options: EvaluateOptions = {}): Promise<TokenDistribution> {
    return (await this.nextTokenDistributions([prompt], options))[0];
  }

  async nextTokenDistributions(prompts: readonly Prompt[], options: EvaluateOptions = {}): Promise<TokenDistribution[]> {
    if (options.restrictTo) checkRestriction(options.restrictTo, this.loaded.vocabularySize);
    if (prompts.length === 0) return [];
    return this.request<HostDistribution[]>(
      { op: 'distributions', prompts: prompts.map(wire), restrictTo: options.restrictTo ? [...options.restrictTo] : undefined, continuing: options.continuing },
      options.signal,
    );
  }

  async topNextTokens(prompt: Prompt, k: number, signal?: AbortSignal): Promise<TopToken[]> {
    const top = await this.request<HostTopToken[]>({ op: 'topTokens', prompt: wire(prompt), k }, signal);
    const texts = await this.tokenTexts(top.map((t) => t.token));
    return top.map((t, i) => ({ ...t, text: texts[i] }));
  }

  /** Cancellation stops the host's token loop; the text so far comes back with finishReason 'cancelled'. */
  async generate(prompt: Prompt, options: GenerateOptions): Promise<Generation> {
    if (options.signal?.aborted) return { text: '', tokens: [], finishReason: 'cancelled' };
    // A seeded (non-cryptographic) source makes sampling reproducible; otherwise the host samples from its CSPRNG.
    const seed = options.random && !options.random.cryptographic ? options.random.nextUint32() : null;
    return this.request<HostGeneration>(
      {
        op: 'generate',
        prompt: wire(prompt),
        maxTokens: options.maxTokens,
        temperature: options.temperature ?? 0,
        seed,
        stop: [...(options.stop ?? [])],
      },
      options.signal,
    );
  }

  /** The teachers of an answered query, each in its own sequence, prefilled once and decoded together (electron/workers/teacherDecoding.ts). */
  generateEach(prompts: readonly (Prompt | null)[], options: GenerateOptions): Promise<(Generation | null)[]> {
    options.signal?.throwIfAborted();
    const sampled = (options.temperature ?? 0) > 0 && options.random && !options.random.cryptographic;
    const seed = sampled ? options.random!.nextUint32() : null; // greedy teachers draw nothing
    return this.request<(HostGeneration | null)[]>(
      { op: 'generateEach', prompts: prompts.map((p) => (p === null ? null : wire(p))), maxTokens: options.maxTokens, temperature: options.temperature ?? 0, seed, stop: [...(options.stop ?? [])] },
      options.signal,
    );
  }

  scoreLabelsEach(prompts: readonly (string | null)[], labels: readonly string[], signal?: AbortSignal): Promise<(number[] | null)[]> {
    return this.request({ op: 'scoreLabelsEach', prompts: [...prompts], labels: [...labels] }, signal);
  }

  scoreLabels(prompt: string, labels: readonly string[], signal?: AbortSignal): Promise<number[]> {
    return this.request({ op: 'scoreLabels', prompt, labels: [...labels] }, signal);
  }

  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.request({ op: 'embed', texts: [...texts] }, signal);
  }

  /** Tokens the host has evaluated since load (tests and benches: how much was prefilled). */
  counters(): Promise<EvaluationCounters> {
    return this.request({ op: 'counters' });
  }

  /** Unload the model from the host (the host process keeps running). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.host.request({ op: 'unload' }).catch(() => undefined);
  }

  /** Mark closed without talking to the host (it died). */
  markGone(): void {
    this.closed = true;
  }
}
