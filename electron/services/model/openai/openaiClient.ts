/**
 * HTTP client for an OpenAI-compatible inference server (vLLM, llama.cpp server, …).
 * The API key lives only in a private field of this object: it is sent as a bearer
 * token, never logged, never serialised (toJSON omits it), never written to the data
 * directory, and scrubbed from any error text a server echoes back. The logprob cap
 * starts at the configured value (default 20, vLLM's) and only ever goes down, to what
 * the server turns out to allow (see logprobCap.ts).
 */
import { RefusalError } from '../../refusalError';

export interface RemoteConfig {
  /** e.g. http://10.0.0.5:8000/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** The most logprobs to ask for per position (OpenAI allows 5, vLLM 20 by default); lowered if the server allows fewer. */
  maxLogprobs?: number;
  timeoutMs?: number;
}

const DEFAULT_MAX_LOGPROBS = 20;

export class RemoteServerError extends Error {
  override readonly name = 'RemoteServerError';
  constructor(
    message: string,
    readonly status: number,
    /** The server's own explanation (scrubbed), without the method and status prefix. */
    readonly detail = '',
  ) {
    super(message);
  }
}

/** Normalise and check a base URL: http(s), no embedded credentials, no query. */
function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusalError(`not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusalError('the server URL must start with http:// or https://');
  if (url.username || url.password) throw new RefusalError('put the API key in the API key field, not in the URL');
  if (url.search || url.hash) throw new RefusalError('the server URL must not have a query or fragment');
  return url.href.replace(/\/+$/, '');
}

export class OpenAiClient {
  readonly baseUrl: string;
  readonly model: string;
  #maxLogprobs: number;
  readonly #apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(config: RemoteConfig, private readonly fetchImpl: typeof fetch = globalThis.fetch) {
    this.baseUrl = normaliseBaseUrl(config.baseUrl);
    this.model = config.model;
    this.#maxLogprobs = Math.max(1, Math.floor(config.maxLogprobs ?? DEFAULT_MAX_LOGPROBS));
    this.#apiKey = config.apiKey || undefined;
    this.timeoutMs = config.timeoutMs ?? 120_000;
  }

  /** The most logprobs per position this server returns, as far as we know. */
  get maxLogprobs(): number {
    return this.#maxLogprobs;
  }

  /** The server allows fewer logprobs than we thought: lower the cap (it never goes up). */
  lowerMaxLogprobs(cap: number): void {
    this.#maxLogprobs = Math.max(1, Math.min(this.#maxLogprobs, Math.floor(cap)));
  }

  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /** The server root (the base URL without a trailing /v1), for /tokenize and /detokenize. */
  get rootUrl(): string {
    return this.baseUrl.replace(/\/v1$/, '');
  }

  toJSON(): object {
    return { baseUrl: this.baseUrl, model: this.model, hasApiKey: this.hasApiKey, maxLogprobs: this.maxLogprobs };
  }

  private scrub(text: string): string {
    return this.#apiKey ? text.split(this.#apiKey).join('[redacted]') : text;
  }

  private async call<T>(method: 'GET' | 'POST', url: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const path = new URL(url).pathname;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'error',
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new RemoteServerError(`cannot reach ${this.scrub(new URL(url).origin)}: ${this.scrub(reason)}`, 0);
    }
    const text = await response.text();
    if (!response.ok) {
      let detail = text;
      try {
        const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string; detail?: string };
        detail = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? parsed.message ?? parsed.detail ?? text;
      } catch {
        /* not JSON */
      }
      const scrubbed = this.scrub(String(detail)).slice(0, 300);
      throw new RemoteServerError(`${method} ${path} → HTTP ${response.status}: ${scrubbed}`, response.status, scrubbed);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new RemoteServerError(`${method} ${path} answered with something other than JSON`, response.status);
    }
  }

  /** POST to a path under the base URL ("/completions", "/embeddings"). */
  post<T>(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    return this.call<T>('POST', `${this.baseUrl}${path}`, { model: this.model, ...body }, signal);
  }

  /** POST to a path under the server root ("/tokenize", "/detokenize"). */
  postRoot<T>(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    return this.call<T>('POST', `${this.rootUrl}${path}`, { model: this.model, ...body }, signal);
  }

  get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return this.call<T>('GET', `${this.baseUrl}${path}`, undefined, signal);
  }
}
