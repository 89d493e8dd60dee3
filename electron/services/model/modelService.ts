/**
 * The model service (ctx.singleton('model')): which LanguageModel answers — the reference
 * learner (default, offline), a GGUF in llama.cpp in the model host process, or an
 * OpenAI-compatible server — plus loading, unloading, status and "try a prompt".
 * Nothing here logs or stores prompt text or API keys.
 */
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import type { LanguageModel } from '../../../core/model/languageModel';
import type { ModelStatus, TryResult } from '../../shared/api/model';
import type { HostLauncher } from '../../workers/launchModelHost';
import type { Hardware, LoadedModel } from '../../workers/modelHostProtocol';
import type { JobContext } from '../jobs/jobManager';
import { readGgufMetadata, sha256File, validateGgufPath, type GgufInspection } from './ggufFile';
import { hardwareSummary } from './hardware';
import { LlamaModel } from './llamaModel';
import { ModelHostClient } from './modelHostClient';
import { OpenAiClient, type RemoteConfig } from './openai/openaiClient';
import { RemoteModel } from './openai/remoteModel';
import { loadReferenceLearner } from './referenceResources';

export interface LoadOptions {
  threads?: number;
  sequences?: number;
  contextSize?: number;
}

/** Default llama.cpp threads: half the cores (1 on this 2-core machine, where more threads were far slower). */
export function defaultThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

const DEFAULT_SEQUENCES = 10;
const DEFAULT_CONTEXT_SIZE = 2048;

interface LlamaState {
  model: LlamaModel;
  inspection: GgufInspection;
  threads: number;
}

export class ModelService {
  private llama?: LlamaState;
  private remote?: RemoteModel;
  private host?: ModelHostClient;
  private hostHardware: Hardware | null = null;
  private loadingJobId: string | null = null;
  private lastError: string | null = null;

  constructor(private readonly options: { launcher?: HostLauncher } = {}) {}

  /** The model host client (started on first use). */
  hostClient(): ModelHostClient {
    if (!this.host) {
      this.host = new ModelHostClient(this.options.launcher);
      this.host.onCrash = (message) => {
        this.lastError = message;
        if (this.llama) {
          this.llama.model.markGone();
          this.llama = undefined;
          this.hostHardware = null;
        }
      };
    }
    return this.host;
  }

  /** The LanguageModel that answers now. */
  async current(): Promise<LanguageModel> {
    return this.llama?.model ?? this.remote ?? (await loadReferenceLearner());
  }

  get loading(): boolean {
    return this.loadingJobId !== null;
  }

  activeBackendName(): 'reference' | 'llama.cpp' | 'openai-compatible' {
    return this.llama ? 'llama.cpp' : this.remote ? 'openai-compatible' : 'reference';
  }

  async status(): Promise<ModelStatus> {
    const model = await this.current();
    const host = this.host?.status() ?? { running: false, pid: null, restarts: 0, lastCrash: null };
    const l = this.llama;
    return {
      active: { ...model.info, capabilities: model.capabilities },
      gguf: l
        ? { ...l.inspection, contextSize: l.model.loaded.contextSize, sequences: l.model.loaded.sequences, threads: l.threads, loadSeconds: l.model.loaded.loadSeconds }
        : null,
      remote: this.remote ? (this.remote.client.toJSON() as NonNullable<ModelStatus['remote']>) : null,
      hardware: hardwareSummary(defaultThreads(), this.hostHardware),
      host,
      loadingJobId: this.loadingJobId,
      lastError: this.lastError,
    };
  }

  /**
   * Validate, hash and load a GGUF (run inside a job). A previously loaded GGUF is unloaded
   * first (one model per host); a remote server stays active until the load succeeds.
   */
  async loadGguf(path: string, job: JobContext, options: LoadOptions = {}): Promise<{ path: string; sha256: string; loadSeconds: number }> {
    if (this.loadingJobId && this.loadingJobId !== job.id) throw new Error('another model is being loaded');
    this.loadingJobId = job.id;
    try {
      job.progress('validate', 0, 1, 'checking the GGUF header');
      const real = await validateGgufPath(path);
      const metadata = await readGgufMetadata(real);
      if (metadata.vocabularySize === null) throw new Error('the GGUF has no tokenizer vocabulary (tokenizer.ggml.tokens)');
      job.progress('validate', 1, 1);
      const sha256 = await sha256File(real, (done, total) => job.progress('hash', done, total, 'SHA-256'), job.signal);
      job.throwIfCancelled();
      const host = this.hostClient();
      job.progress('start', 0, 1, 'starting the model host');
      await host.start();
      const threads = options.threads ?? defaultThreads();
      await this.unloadLlama();
      const loaded = await host.request<LoadedModel>(
        {
          op: 'load',
          path: real,
          threads,
          sequences: options.sequences ?? DEFAULT_SEQUENCES,
          contextSize: options.contextSize ?? DEFAULT_CONTEXT_SIZE,
          vocabularySize: metadata.vocabularySize,
        },
        { signal: job.signal, onProgress: (p) => job.progress('load', Math.round(p * 1000), 1000, 'loading weights') },
      );
      job.throwIfCancelled();
      const inspection = { path: real, fileName: basename(real), sha256, metadata };
      const model = new LlamaModel(host, loaded, metadata, metadata.name ?? basename(real));
      this.hostHardware = await host.request<Hardware>({ op: 'hardware' });
      await this.remote?.close();
      this.remote = undefined;
      this.llama = { model, inspection, threads };
      this.lastError = null;
      return { path: real, sha256, loadSeconds: loaded.loadSeconds };
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      if (job.signal.aborted) await this.host?.stop();
      throw error;
    } finally {
      this.loadingJobId = null;
    }
  }

  private async unloadLlama(): Promise<void> {
    const llama = this.llama;
    this.llama = undefined;
    this.hostHardware = null;
    await llama?.model.close();
  }

  async useReference(): Promise<ModelStatus> {
    await loadReferenceLearner();
    await this.unloadLlama();
    await this.remote?.close();
    this.remote = undefined;
    return this.status();
  }

  async useRemote(config: RemoteConfig): Promise<ModelStatus> {
    const remote = await RemoteModel.connect(new OpenAiClient(config));
    await this.unloadLlama();
    this.remote = remote;
    this.lastError = null;
    return this.status();
  }

  /** Unload the GGUF (and stop the host process, freeing its memory) or forget the server. */
  async unload(): Promise<ModelStatus> {
    await this.unloadLlama();
    await this.host?.stop();
    this.remote = undefined;
    return this.status();
  }

  async try(prompt: string, maxTokens = 32, topK = 10): Promise<TryResult> {
    const model = await this.current();
    const started = performance.now();
    const top = await model.topNextTokens(prompt, topK);
    const generation = maxTokens > 0 ? await model.generate(prompt, { maxTokens }) : { text: '', finishReason: 'length' as const };
    return {
      backend: model.info.backend,
      model: model.info.name,
      text: generation.text,
      finishReason: generation.finishReason,
      topTokens: top,
      seconds: (performance.now() - started) / 1000,
    };
  }

  async close(): Promise<void> {
    this.llama?.model.markGone();
    this.llama = undefined;
    this.remote = undefined;
    await this.host?.stop();
  }
}
