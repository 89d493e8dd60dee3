/**
 * A local OpenAI-compatible test server (127.0.0.1 only) that serves the reference
 * learner: /v1/models, /v1/completions (logprobs with an optional cap, logit_bias applied
 * before the logprobs are computed — as OpenAI does —, echo), /v1/embeddings, and the
 * vLLM-style /tokenize and /detokenize (or, with `noTokenizer`, neither). Optionally requires a bearer key; records the
 * authorization headers it saw so tests can check what was sent. A logprob cap answers
 * HTTP 400 when exceeded (as vLLM and OpenAI do) or, with `silentCap`, returns fewer
 * logprobs than asked; the cap can be changed while running. `rejectPrompts()` makes it
 * answer every completion with HTTP 400 quoting the prompt; `refuseMarker` refuses those holding a marker. It
 * records each completion request's seed and prompts, and how many completion requests it held
 * at once at most (`peakCompletions`; `completionDelayMs` holds each one that long first).
 * With `gpu`, it also prices every request as a prefix-caching server would (simulatedGpu.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { softmax } from '../../../core/model/distribution';
import type { ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import type { SimulatedGpu } from './simulatedGpu';

export interface TestServerOptions {
  maxLogprobs?: number;
  apiKey?: string;
  /** Key top_logprobs by token text even when asked for "token_id:N" keys (servers other than vLLM). */
  textKeys?: boolean;
  /** Return at most maxLogprobs logprobs without complaining, instead of HTTP 400. */
  silentCap?: boolean;
  /** max_model_len announced by /v1/models, enforced on completions (default 100,000). */
  contextLength?: number;
  /** No /tokenize or /detokenize (servers other than vLLM and llama.cpp's). */
  noTokenizer?: boolean;
  /** Refuse (HTTP 400, as a content filter does) any completion request with a prompt holding this text. */
  refuseMarker?: string;
  /** Hold each completion request this long before answering (so that concurrent requests overlap). */
  completionDelayMs?: number;
  /** Count and price requests as a prefix-caching server would (requests, prefilled tokens, decodes). */
  gpu?: SimulatedGpu;
  /** A BOS text counted into every echo offset (vLLM decodes the first prompt token, e.g. "<|begin_of_text|>"). */
  bosText?: string;
}

export interface TestServer {
  baseUrl: string;
  authorizations: string[];
  requests: number;
  /** The `seed` of every completion request, in order (null: none sent). */
  seeds: (number | null)[];
  /** The prompts of every completion request, in order (one list per request). */
  completionPrompts: unknown[][];
  /** Most completion requests held at once since the start or the last `resetPeak()`. */
  peakCompletions: number;
  resetPeak(): void;
  /** Change the logprob cap of the running server. */
  limitLogprobs(max: number): void;
  /** From now on, refuse every completion with HTTP 400 quoting the prompt it was sent (as some servers' context-length errors do). */
  rejectPrompts(): void;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

/** A prompt longer than the announced context (answered HTTP 400, as vLLM does). */
class ContextOverflow extends Error {
  constructor(tokens: number) {
    super(`This model's maximum context length is exceeded: the prompt has ${tokens} tokens`);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Body> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Body) : {};
}

export async function startOpenAiTestServer(model: ReferenceLearner, serverOptions: TestServerOptions = {}): Promise<TestServer> {
  const options = { ...serverOptions };
  const state = { authorizations: [] as string[], requests: 0, rejectPrompts: false, seeds: [] as (number | null)[], completionPrompts: [] as unknown[][], inFlight: 0, peak: 0 };

  const tokens = async (prompt: unknown): Promise<number[]> => (typeof prompt === 'string' ? model.tokenize(prompt) : (prompt as number[]));
  const key = async (t: number, asIds: boolean) => (asIds ? `token_id:${t}` : model.tokenText(t));

  async function completion(prompt: unknown, body: Body, index: number) {
    const ids = await tokens(prompt);
    if (ids.length + 1 > (options.contextLength ?? 100_000)) throw new ContextOverflow(ids.length);
    const logprobCount = typeof body.logprobs === 'number' ? Math.min(body.logprobs, options.maxLogprobs ?? Infinity) : null;
    const bias = (body.logit_bias ?? {}) as Record<string, number>;
    const asIds = Boolean(body.return_tokens_as_token_ids) && !options.textKeys;
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 16;
    const echoTokens: number[] = body.echo ? ids : [];
    const echoLogprobs: (number | null)[] = [];
    for (let i = 0; i < echoTokens.length; i++) {
      echoLogprobs.push(i === 0 ? null : Math.log((await model.nextTokenDistribution(ids.slice(0, i))).probs[ids[i]]));
    }
    const dist = (await model.nextTokenDistribution(ids)).probs;
    const biased = softmax(Array.from(dist, (p, t) => Math.log(p) + (bias[String(t)] ?? 0)));
    let generated: number[];
    let text: string;
    let finish = 'length';
    if (Object.keys(bias).length > 0 || maxTokens <= 1) {
      generated = maxTokens > 0 ? [biased.indexOf(Math.max(...biased))] : [];
      text = await model.detokenize(generated);
    } else {
      const g = await model.generate(ids, { maxTokens, stop: (body.stop as string[] | undefined) ?? [] });
      generated = g.tokens;
      text = g.text;
      finish = g.finishReason === 'stop' ? 'stop' : 'length';
    }
    // Prompt logprobs (echo) make vLLM recompute the prompt instead of reading its prefix cache.
    options.gpu?.complete(ids, !(body.echo && logprobCount !== null), generated.length);
    let logprobs = null;
    if (logprobCount !== null) {
      const order = Array.from(biased.keys()).sort((a, b) => biased[b] - biased[a]).slice(0, logprobCount);
      const top: Record<string, number> = {};
      for (const t of order) top[await key(t, asIds)] = Math.log(biased[t]);
      const all = [...echoTokens, ...generated];
      // Each token's offset in code points (Python string indices, as vLLM and OpenAI count): the
      // text before it, less an unfinished character (a byte token's U+FFFD) at its end.
      const offsets: number[] = [];
      const bos = body.echo ? [...(options.bosText ?? '')].length : 0;
      for (let i = 0; i < all.length; i++) offsets.push(bos + [...(await model.detokenize(all.slice(0, i))).replace(/\uFFFD+$/, '')].length);
      logprobs = {
        tokens: await Promise.all(all.map((t) => key(t, asIds))),
        token_logprobs: [...echoLogprobs, ...generated.map((t) => Math.log(biased[t]))],
        top_logprobs: [...echoTokens.map(() => null), top],
        text_offset: offsets,
      };
    }
    return { index, text: (body.echo ? await model.detokenize(ids) : '') + text, finish_reason: finish, logprobs };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    state.requests++;
    state.authorizations.push(req.headers.authorization ?? '');
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(res, 401, { error: { message: `Incorrect API key provided: ${req.headers.authorization ?? 'none'}` } });
    }
    const url = req.url ?? '';
    if (req.method === 'GET' && url === '/v1/models') return send(res, 200, { object: 'list', data: [{ id: 'reference', object: 'model', max_model_len: options.contextLength ?? 100_000 }] });
    if (req.method !== 'POST') return send(res, 404, { error: { message: 'not found' } });
    const body = await readBody(req);
    if (options.noTokenizer && (url === '/tokenize' || url === '/detokenize')) return send(res, 404, { error: { message: 'not found' } });
    if (url === '/tokenize') return send(res, 200, { tokens: await model.tokenize(String(body.prompt ?? body.content ?? '')) });
    if (url === '/detokenize') return send(res, 200, { prompt: await model.detokenize(body.tokens as number[]) });
    if (url === '/v1/embeddings') {
      const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      const vectors = await model.embed(input);
      return send(res, 200, { object: 'list', data: vectors.map((v, index) => ({ index, object: 'embedding', embedding: Array.from(v) })) });
    }
    if (url === '/v1/completions') {
      if (body.model !== 'reference') return send(res, 404, { error: { message: `model ${String(body.model)} not found` } });
      state.seeds.push(typeof body.seed === 'number' ? body.seed : null);
      const prompts = Array.isArray(body.prompt) && (body.prompt.length === 0 || typeof body.prompt[0] !== 'number') ? (body.prompt as unknown[]) : [body.prompt];
      state.completionPrompts.push(prompts);
      state.peak = Math.max(state.peak, ++state.inFlight);
      try {
        return await answerCompletion(res, body, prompts);
      } finally {
        state.inFlight--;
      }
    }
    send(res, 404, { error: { message: 'not found' } });
  }

  async function answerCompletion(res: ServerResponse, body: Body, prompts: unknown[]): Promise<void> {
    if (options.completionDelayMs) await new Promise((resolve) => setTimeout(resolve, options.completionDelayMs));
    if (options.refuseMarker && JSON.stringify(body.prompt).includes(options.refuseMarker)) {
      return send(res, 400, { error: { message: 'The prompt was flagged by the content filter' } });
    }
    if (state.rejectPrompts) return send(res, 400, { error: { message: `This prompt is too long: ${JSON.stringify(body.prompt)}` } });
    if (typeof body.logprobs === 'number' && options.maxLogprobs !== undefined && body.logprobs > options.maxLogprobs && !options.silentCap) {
      return send(res, 400, { error: { message: `logprobs must be at most ${options.maxLogprobs}` } });
    }
    const choices = [];
    for (let i = 0; i < prompts.length; i++) choices.push(await completion(prompts[i], body, i));
    return send(res, 200, { object: 'text_completion', model: 'reference', choices });
  }

  const server: Server = createServer((req, res) => {
    options.gpu?.arrive(req.url === '/v1/completions');
    handle(req, res).catch((error: unknown) => send(res, error instanceof ContextOverflow ? 400 : 500, { error: { message: error instanceof Error ? error.message : String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get authorizations() {
      return state.authorizations;
    },
    get requests() {
      return state.requests;
    },
    get seeds() {
      return state.seeds;
    },
    get completionPrompts() {
      return state.completionPrompts;
    },
    get peakCompletions() {
      return state.peak;
    },
    resetPeak: () => {
      state.peak = state.inFlight;
    },
    limitLogprobs: (max) => {
      options.maxLogprobs = max;
    },
    rejectPrompts: () => {
      state.rejectPrompts = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
