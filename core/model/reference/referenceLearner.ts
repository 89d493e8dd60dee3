/**
 * The reference learner: a deterministic, transparent statistical in-context learner —
 * a baseline, not an LLM — so the whole app works offline with no model file.
 *
 * Next-token distribution = Kneser–Ney bigram of a public background corpus
 * (BackgroundModel) → cache n-gram model of the prompt (CacheModel) → for a domain
 * learner, the demonstrations' topic (TopicLift) and, while writing the text under a
 * public label, that label's public topic (labelTopics.ts) → label model: when
 * the current line is a prefix of the answer lines of the prompt's demonstrations
 * ("Label: spam"), the probability mass the cache gives to the possible answer tokens is
 * redistributed by a naive Bayes classifier trained on those demonstrations, with weight
 * ρ = n/(n + 2) for n demonstrations. Label scores are token log-probabilities summed
 * under this same distribution. Embeddings are hashed TF-IDF.
 */
import { cryptoRandom } from '../../random/cryptoRandom';
import { restrictDistribution, sampleIndex, topK } from '../distribution';
import { finishStop, firstStop } from '../stopStrings';
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
} from '../languageModel';
import type { BackgroundData } from './backgroundData';
import { BackgroundModel } from './backgroundModel';
import { CacheModel } from './cacheModel';
import { parseDemonstrations } from './demonstrations';
import { naiveBayesPosterior } from './naiveBayes';
import { TfidfEmbedder } from './tfidfEmbedding';
import { TopicLift } from './topicLift';
import { applyLabelTopic, labelTopics, type LabelTopics } from './labelTopics';
import { EOS_TOKEN, FIRST_PIECE, ReferenceTokenizer } from './tokenizer';
import { keepWholeWords, PromptWords, wordEdges, type WordEdges } from './wholeWords';

interface LabelPath {
  tokens: TokenId[];
  posterior: number;
}

/**
 * Tokens of the prompt's instruction — its first paragraph, when a blank line follows it —
 * which a domain learner reads as the task, not as text to continue (else a weak model
 * copies "Classify each text as one of: …" into its demonstrations).
 */
function instructionTokens(tokenizer: ReferenceTokenizer, tokens: readonly TokenId[], text: string): number {
  const end = text.indexOf('\n\n');
  if (end <= 0) return 0;
  const head = tokenizer.encode(text.slice(0, end));
  return head.every((t, i) => tokens[i] === t) ? head.length : 0;
}

/** Index of the first token of the prompt's last line. */
function lastLineStart(learner: ReferenceLearner, tokens: readonly TokenId[]): number {
  for (let i = tokens.length - 1; i >= 0; i--) if (learner.breaksLine(tokens[i])) return i + 1;
  return 0;
}

/**
 * The distinct lines between the instruction and the current (last) line, but for the
 * current demonstration's head ("Label: x") and its copies: the label is not its topic.
 */
function demonstrationLines(text: string): string[] {
  const start = text.indexOf('\n\n');
  const lines = text.slice(start < 0 ? 0 : start + 2, Math.max(0, text.lastIndexOf('\n'))).split('\n');
  const head = lines[lines.length - 1];
  return [...new Set(lines.filter((l) => l.trim() !== '' && l !== head))];
}

/** The evolving state of one prompt: cache counts, current line, label paths. */
class PromptState {
  private readonly cache: CacheModel;
  private line: TokenId[] = [];
  private readonly paths: LabelPath[] = [];
  private readonly rho: number;
  private readonly topic: TopicLift | null;
  private readonly labelTopic: Float64Array | undefined;

  constructor(private readonly learner: ReferenceLearner, tokens: readonly TokenId[], text: string) {
    this.cache = new CacheModel();
    this.labelTopic = learner.labelTopicOf(text);
    const instruction = learner.domain ? instructionTokens(learner.tokenizer, tokens, text) : 0;
    // A domain learner counts the demonstrations, not the line it is writing (else it loops on its own words).
    this.counting = true;
    const lineStart = learner.domain ? lastLineStart(learner, tokens) : tokens.length;
    tokens.slice(instruction).forEach((t, i) => {
      this.counting = instruction + i < lineStart;
      this.push(t);
    });
    this.counting = !learner.domain;
    this.topic = learner.domain ? new TopicLift(demonstrationLines(text).map((l) => learner.tokenizer.encode(l)), (t) => learner.background.prior(t)) : null;
    const context = parseDemonstrations(text);
    if (context) {
      const lines = new Map<string, string>();
      for (const d of context.demonstrations) if (!lines.has(d.label)) lines.set(d.label, d.line);
      const labels = [...lines.keys()];
      const posterior = naiveBayesPosterior(context.demonstrations, context.query, labels);
      labels.forEach((label, i) => this.paths.push({ tokens: learner.tokenizer.encode(lines.get(label)!), posterior: posterior[i] }));
      this.rho = context.demonstrations.length / (context.demonstrations.length + 2);
    } else {
      this.rho = 0;
    }
  }

  private counting: boolean;

  push(token: TokenId): void {
    this.cache.push(token, this.counting);
    if (this.learner.breaksLine(token)) this.line = [];
    else this.line.push(token);
  }

  /** Tokens that followed the last token earlier in the line being written: any of them next would repeat a bigram. */
  followersOfLast(): Set<TokenId> {
    const n = this.line.length;
    const out = new Set<TokenId>();
    for (let i = 0; i + 1 < n; i++) if (this.line[i] === this.line[n - 1]) out.add(this.line[i + 1]);
    return out;
  }

  get lastToken(): TokenId {
    return this.cache.last ?? EOS_TOKEN;
  }

  distribution(): Float64Array {
    const out = new Float64Array(this.learner.vocabularySize);
    this.learner.background.fill(this.cache.last ?? EOS_TOKEN, out);
    this.cache.apply(out);
    this.topic?.apply(out);
    if (this.labelTopic) applyLabelTopic(this.labelTopic, out);
    if (this.rho > 0) this.mixLabels(out);
    return out;
  }

  /** Redistribute the mass on the answer tokens that can come next by the label posterior. */
  private mixLabels(out: Float64Array): void {
    const n = this.line.length;
    const next = new Map<TokenId, number>();
    let total = 0;
    for (const path of this.paths) {
      if (path.tokens.length <= n || !this.line.every((t, i) => path.tokens[i] === t)) continue;
      const t = path.tokens[n];
      next.set(t, (next.get(t) ?? 0) + path.posterior);
      total += path.posterior;
    }
    if (next.size === 0 || total === 0) return;
    let mass = 0;
    for (const t of next.keys()) mass += out[t];
    for (const [t, p] of next) out[t] = (1 - this.rho) * out[t] + this.rho * mass * (p / total);
  }
}

/**
 * A domain learner proposes the smallest set of top candidates holding NUCLEUS of their
 * mass (Holtzman et al. 2020), at least MIN_CANDIDATES: the noise of a private step grows
 * with the number of candidates (its largest of K Gaussians ≈ σ·√(2 ln K)), and words the
 * public text makes unlikely rarely win the vote anyway. A public choice: the public
 * prompt's distribution only.
 */
const NUCLEUS = 0.6;
const MIN_CANDIDATES = 8;

function nucleus<T extends { prob: number }>(top: T[]): T[] {
  const total = top.reduce((a, t) => a + t.prob, 0);
  let sum = 0;
  return top.filter((t, i) => {
    const keep = i < MIN_CANDIDATES || sum < NUCLEUS * total;
    sum += t.prob;
    return keep;
  });
}

/** Most milliseconds of computation between two turns of the event loop. */
const BREATH_MS = 50;

export const REFERENCE_LEARNER_NAME = 'reference learner (statistical baseline, not an LLM)';

/**
 * A domain learner's candidates: pieces the background saw as tokens (not bytes, not unseen
 * filler characters), never a label — a demonstration that names its label ("Re: spam")
 * teaches nothing. 1 for a possible candidate.
 */
function candidatePieces(tokenizer: ReferenceTokenizer, continuation: readonly number[], labels: readonly string[]): Uint8Array {
  const label = new Set(labels.map((l) => l.trim().toLowerCase()));
  return Uint8Array.from({ length: tokenizer.vocabularySize }, (_, t) => (t >= FIRST_PIECE && continuation[t] > 0 && !label.has(tokenizer.tokenText(t).trim().toLowerCase()) ? 1 : 0));
}

export class ReferenceLearner implements LanguageModel {
  readonly tokenizer: ReferenceTokenizer;
  readonly background: BackgroundModel;
  private readonly embedder: TfidfEmbedder;
  private readonly lineBreaks: Uint8Array;
  readonly info: ModelInfo;
  readonly capabilities: ModelCapabilities = {
    tokenize: true,
    fullDistribution: true,
    restrictedDistribution: true,
    batchedEvaluation: false,
    generate: true,
    scoreLabels: true,
    embeddings: true,
    batchInvariant: true,
    maxTopTokens: null,
  };

  /** Where pieces would glue into one word (wholeWords.ts): what the learner writes is whole words. */
  private readonly edges: WordEdges;
  /** A domain learner's possible candidates (see topNextTokens), or null: every token may be a candidate. */
  private readonly candidates: Uint8Array | null;
  /**
   * A domain learner (a dataset's own background, domainBackground.ts): whole-word
   * candidates, the instruction is not copied, demonstrations lift their topic's words.
   */
  readonly domain: boolean;

  /** Per public label, how its public texts differ from all public texts (labelTopics.ts). */
  private readonly topics: LabelTopics | null;

  constructor(
    data: BackgroundData,
    options: { domain?: boolean; name?: string; labels?: readonly string[]; labelled?: readonly { text: string; label: string }[] } = {},
  ) {
    this.tokenizer = new ReferenceTokenizer(data.pieces);
    this.background = new BackgroundModel(data);
    if (this.background.vocabularySize !== this.tokenizer.vocabularySize) throw new Error('background data does not match its vocabulary');
    this.embedder = new TfidfEmbedder(data.embeddingDf, data.documents);
    this.lineBreaks = Uint8Array.from({ length: this.tokenizer.vocabularySize }, (_, t) => (t !== EOS_TOKEN && this.tokenizer.decode([t]).includes('\n') ? 1 : 0));
    this.domain = options.domain ?? false;
    this.edges = wordEdges(this.tokenizer);
    this.candidates = this.domain ? candidatePieces(this.tokenizer, data.continuation, options.labels ?? []) : null;
    this.topics = this.domain && options.labelled?.length ? labelTopics(options.labelled.map((r) => ({ label: r.label, tokens: this.tokenizer.encode(` ${r.text}`) }))) : null;
    this.info = {
      backend: 'reference',
      name: options.name ?? REFERENCE_LEARNER_NAME,
      kind: 'baseline',
      vocabularySize: this.tokenizer.vocabularySize,
      contextLength: null,
      embeddingDimension: this.embedder.dimension,
    };
  }

  get vocabularySize(): number {
    return this.tokenizer.vocabularySize;
  }

  /**
   * The factors of the label whose text the prompt is writing: its last line continues a
   * field ("Text: …") right under a line naming a public label ("Label: spam").
   */
  labelTopicOf(text: string): Float64Array | undefined {
    if (!this.topics) return undefined;
    const lines = text.split('\n');
    const head = lines.length >= 2 ? /^[^:]{1,40}:\s*(.+?)\s*$/u.exec(lines[lines.length - 2]) : null;
    return head ? this.topics.get(head[1]) : undefined;
  }

  breaksLine(token: TokenId): boolean {
    return this.lineBreaks[token] === 1;
  }

  private state(prompt: Prompt): PromptState {
    const { tokens, text } = this.read(prompt);
    return new PromptState(this, tokens, text);
  }

  private read(prompt: Prompt): { tokens: TokenId[]; text: string } {
    const tokens = typeof prompt === 'string' ? this.tokenizer.encode(prompt) : [...prompt];
    for (const t of tokens) if (!Number.isInteger(t) || t < 0 || t >= this.vocabularySize) throw new Error(`token id ${t} is not in the vocabulary`);
    return { tokens, text: typeof prompt === 'string' ? prompt : this.tokenizer.decode(tokens) };
  }

  async tokenize(text: string): Promise<TokenId[]> {
    return this.tokenizer.encode(text);
  }

  async detokenize(tokens: readonly TokenId[]): Promise<string> {
    return this.tokenizer.decode(tokens);
  }

  async tokenText(token: TokenId): Promise<string> {
    return this.tokenizer.tokenText(token);
  }

  private lastBreath = performance.now();

  /**
   * The learner computes in the caller's process: at most every BREATH_MS of work it lets the
   * event loop run (a cancel request, progress events), then checks for cancellation.
   */
  private async breathe(signal?: AbortSignal): Promise<void> {
    if (performance.now() - this.lastBreath >= BREATH_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      this.lastBreath = performance.now();
    }
    signal?.throwIfAborted();
  }

  async nextTokenDistribution(prompt: Prompt, options: EvaluateOptions = {}): Promise<TokenDistribution> {
    await this.breathe(options.signal);
    const probs = this.state(prompt).distribution();
    return options.restrictTo ? restrictDistribution(probs, options.restrictTo) : { probs };
  }

  async nextTokenDistributions(prompts: readonly Prompt[], options: EvaluateOptions = {}): Promise<TokenDistribution[]> {
    const out: TokenDistribution[] = [];
    for (const prompt of prompts) out.push(await this.nextTokenDistribution(prompt, options));
    return out;
  }

  /**
   * The k most likely next tokens. With whole words (a domain learner), only the end of
   * text and pieces the background saw as tokens are candidates — never a label, nor a
   * letter or digit piece right after one (that would glue "re" + "Time" into a word no
   * text holds), never a word that would repeat a bigram of the line being written (a
   * no-repeat rule: greedy votes over an n-gram model loop, "Re: Re: Re:") — and only the
   * nucleus of them: whatever is chosen, the text is made of the background's words.
   */
  async topNextTokens(prompt: Prompt, k: number, signal?: AbortSignal): Promise<TopToken[]> {
    await this.breathe(signal);
    const state = this.state(prompt);
    const probs = state.distribution();
    if (this.candidates) {
      keepWholeWords(probs, state.lastToken, this.edges);
      for (let t = FIRST_PIECE; t < probs.length; t++) if (this.candidates[t] === 0) probs[t] = 0;
      for (const t of state.followersOfLast()) probs[t] = 0;
    }
    const top = topK({ probs }, k);
    return (this.candidates ? nucleus(top) : top).map(({ token, prob }) => ({ token, prob, text: this.tokenizer.tokenText(token), ...(token === EOS_TOKEN && { special: 'end' as const }) }));
  }

  /** Text sampled (greedy at temperature 0) from the next-token distribution restricted to whole words (wholeWords.ts). */
  async generate(prompt: Prompt, options: GenerateOptions): Promise<Generation> {
    const { tokens: promptTokens, text: promptText } = this.read(prompt);
    const state = new PromptState(this, promptTokens, promptText);
    const words = new PromptWords(this.tokenizer, this.edges, promptText, state.lastToken);
    const random = options.random ?? cryptoRandom;
    const tokens: TokenId[] = [];
    const ended = (finishReason: 'cancelled' | 'length'): Generation => {
      const kept = tokens.slice(0, tokens.length - words.unfinished()); // no prompt word half copied
      return { text: this.tokenizer.decode(kept), tokens: kept, finishReason };
    };
    for (let i = 0; i < options.maxTokens; i++) {
      if (options.signal?.aborted) return ended('cancelled');
      const probs = state.distribution();
      words.restrict(probs);
      const token = sampleIndex(probs, options.temperature ?? 0, random);
      if (token === EOS_TOKEN) return { text: this.tokenizer.decode(tokens), tokens, finishReason: 'eos' };
      tokens.push(token);
      state.push(token);
      words.push(token);
      const text = this.tokenizer.decode(tokens);
      const stop = firstStop(text, options.stop);
      if (stop !== null) return finishStop(text, stop, tokens);
      if (i % 16 === 15) await new Promise((resolve) => setTimeout(resolve, 0)); // let cancellation through
    }
    return ended('length');
  }

  async scoreLabels(prompt: string, labels: readonly string[], signal?: AbortSignal): Promise<number[]> {
    await this.breathe(signal);
    const promptTokens = this.tokenizer.encode(prompt);
    const first = this.state(promptTokens).distribution();
    return labels.map((label) => {
      signal?.throwIfAborted();
      const whole = this.tokenizer.encode(prompt + label);
      const aligned = promptTokens.every((t, i) => whole[i] === t);
      const continuation = aligned ? whole.slice(promptTokens.length) : this.tokenizer.encode(label);
      if (continuation.length === 0) return 0;
      let logProb = Math.log(first[continuation[0]]);
      if (continuation.length > 1) {
        const state = this.state(promptTokens);
        for (let i = 1; i < continuation.length; i++) {
          state.push(continuation[i - 1]);
          logProb += Math.log(state.distribution()[continuation[i]]);
        }
      }
      return logProb;
    });
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return texts.map((text) => {
      signal?.throwIfAborted();
      return this.embedder.embed(text);
    });
  }

  async close(): Promise<void> {}
}
