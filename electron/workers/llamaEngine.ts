/**
 * node-llama-cpp inside the model host process: one Llama (CPU unless VEIL_LLAMA_GPU is
 * set), at most one loaded model with one evaluation context of N parallel sequences
 * and an explicit thread count, and a lazily created embedding context (one text at a
 * time: node-llama-cpp cannot batch embeddings, see `embed`). Requests are
 * serialised: evaluation order, and therefore every result, is deterministic.
 */
import { getLlama, LlamaLogLevel, type Llama, type LlamaEmbeddingContext, type LlamaModel, type Token } from 'node-llama-cpp';
import { LlamaEvaluator } from './llamaEvaluation';
import type { Hardware, HostRequest, LoadedModel, LoadRequest } from './modelHostProtocol';
import { SequencePool } from './sequencePool';
import { TeacherDecoder } from './teacherDecoding';

const MAX_BATCH = 2048;

interface Loaded {
  model: LlamaModel;
  pool: SequencePool;
  evaluator: LlamaEvaluator;
  teachers: TeacherDecoder;
  threads: number;
  embedding?: LlamaEmbeddingContext;
}

export class LlamaEngine {
  private llama?: Llama;
  private loaded?: Loaded;
  private queue: Promise<unknown> = Promise.resolve();
  /** llama.cpp's recent error lines, to explain a failed load ("tensor … has wrong shape"). */
  private recentErrors: string[] = [];

  private async getLlama(): Promise<Llama> {
    this.llama ??= await getLlama({
      gpu: process.env.VEIL_LLAMA_GPU === 'auto' ? 'auto' : false,
      build: 'never',
      progressLogs: false,
      logLevel: LlamaLogLevel.error,
      // llama.cpp's own log lines never carry prompt text at this level; keep them off stdout.
      logger: (level, message) => {
        if (level !== LlamaLogLevel.error && level !== LlamaLogLevel.fatal) return;
        process.stderr.write(`llama.cpp: ${message.trimEnd()}\n`);
        this.recentErrors = [...this.recentErrors, message.trim()].slice(-4);
      },
    });
    return this.llama;
  }

  /** Run `work` after every earlier request has finished. */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private need(): Loaded {
    if (!this.loaded) throw new Error('no model is loaded in the model host');
    return this.loaded;
  }

  async load(request: LoadRequest, onProgress: (progress: number) => void): Promise<LoadedModel> {
    await this.unload();
    const started = performance.now();
    const llama = await this.getLlama();
    this.recentErrors = [];
    const model = await llama
      .loadModel({ modelPath: request.path, gpuLayers: llama.gpu === false ? 0 : 'auto', onLoadProgress: onProgress })
      .catch(async (error: unknown) => {
        await new Promise((resolve) => setTimeout(resolve, 100)); // llama.cpp's log lines arrive asynchronously
        const why = this.recentErrors.filter((l) => /error/i.test(l)).map((l) => l.replace(/^.*?error loading model:\s*/, '').replace(/\s+/g, ' '));
        throw new Error(`llama.cpp could not load the model${why.length ? `: ${why.join('; ')}` : ` (${error instanceof Error ? error.message : String(error)})`}`);
      });
    try {
      const contextSize = Math.max(16, Math.min(request.contextSize, model.trainContextSize || request.contextSize));
      // A batch large enough for a whole step: with node-llama-cpp's default of 512, ten 300-token
      // prompts evaluated together were ~6× slower than one at a time (measured, bench/model.bench.ts).
      const batchSize = Math.min(MAX_BATCH, contextSize * (request.sequences + 1));
      // One sequence more than asked: the public prompt's own (sequencePool.ts).
      const context = await model.createContext({ sequences: request.sequences + 1, contextSize, threads: { ideal: request.threads, min: 1 }, batchSize });
      const pool = new SequencePool(context);
      const evaluator = new LlamaEvaluator(model, pool, request.vocabularySize);
      this.loaded = { model, pool, evaluator, teachers: new TeacherDecoder(model, pool, evaluator), threads: request.threads };
      return {
        vocabularySize: request.vocabularySize,
        contextSize: context.contextSize,
        sequences: pool.size,
        trainContextSize: model.trainContextSize,
        embeddingDimension: model.embeddingVectorSize,
        bos: model.tokens.bos,
        eos: model.tokens.eos,
        loadSeconds: (performance.now() - started) / 1000,
      };
    } catch (error) {
      await model.dispose();
      throw error;
    }
  }

  async unload(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (!loaded) return;
    await loaded.embedding?.dispose();
    await loaded.pool.dispose();
    await loaded.model.dispose();
  }

  async hardware(): Promise<Hardware> {
    const llama = await this.getLlama();
    const loaded = this.loaded;
    return {
      backend: llama.gpu === false ? 'cpu' : llama.gpu,
      threads: loaded ? loaded.pool.context.idealThreads : 0,
      cpuMathCores: llama.cpuMathCores,
      modelBytes: loaded ? loaded.model.size : null,
      contextBytes: loaded ? loaded.pool.context.stateSize : null,
      rssBytes: process.memoryUsage().rss,
      systemInfo: llama.systemInfo.trim(),
    };
  }

  /**
   * One text at a time in one reused embedding context: node-llama-cpp 3.22 cannot batch
   * embeddings — LlamaEmbeddingContext has a single sequence and locks around each text,
   * and its native getEmbedding reads only sequence 0 (pooled models) or the batch's last
   * output, so several sequences in one decode could not be told apart.
   */
  private async embed(texts: string[]): Promise<Float32Array[]> {
    const loaded = this.need();
    loaded.embedding ??= await loaded.model.createEmbeddingContext({ threads: loaded.threads, contextSize: Math.min(2048, loaded.model.trainContextSize || 2048) });
    const out: Float32Array[] = [];
    for (const text of texts) {
      const vector = text === '' ? [] : (await loaded.embedding.getEmbeddingFor(text)).vector;
      const norm = Math.sqrt(vector.reduce((a, x) => a + x * x, 0));
      const unit = new Float32Array(loaded.model.embeddingVectorSize);
      if (norm > 0 && Number.isFinite(norm)) vector.forEach((x, i) => (unit[i] = x / norm));
      else unit[0] = 1;
      out.push(unit);
    }
    return out;
  }

  /** Dispatch one request (already serialised by the caller). */
  async handle(request: HostRequest, signal: AbortSignal, onProgress: (p: number) => void): Promise<unknown> {
    switch (request.op) {
      case 'load':
        return this.load(request, onProgress);
      case 'unload':
        return this.unload();
      case 'hardware':
        return this.hardware();
      case 'tokenize':
        return this.need().model.tokenize(request.text);
      case 'detokenize':
        return this.need().model.detokenize(request.tokens as Token[]);
      case 'tokenTexts': {
        // With a preceding ordinary token, SentencePiece keeps a token's leading space ("▁the" → " the").
        const model = this.need().model;
        const before = model.tokenize('a', false).slice(-1);
        return request.tokens.map((t) => model.detokenize([t as Token], true, before));
      }
      case 'distributions':
        return this.need().evaluator.distributions(request.prompts, request.restrictTo, request.continuing);
      case 'topTokens':
        return this.need().evaluator.topTokens(request.prompt, request.k);
      case 'generate':
        return this.need().evaluator.generate(request, signal);
      case 'scoreLabels':
        return this.need().evaluator.scoreLabels(request.prompt, request.labels);
      case 'generateEach':
        return this.need().teachers.generateEach(request, signal);
      case 'scoreLabelsEach':
        return this.need().teachers.scoreLabelsEach(request.prompts, request.labels);
      case 'embed':
        return this.embed(request.texts);
      case 'counters':
        return { ...this.need().pool.counters };
    }
  }
}
