/**
 * The costs of a simulated prefix-caching inference server (vLLM with automatic prefix caching),
 * for the fake OpenAI server's `gpu` option: it counts what a request pattern makes a server do
 * and prices it, without sleeping. Assumptions (a model of the request pattern, not of a GPU):
 * - every request (completions, /tokenize, /detokenize) costs one network + scheduling latency,
 *   except one the client sends while another of its requests is in flight (it overlaps that
 *   one's latency; counted by the client's fetch, `clientFetch`);
 * - a completion prompt's tokens are prefilled except its longest prefix of whole cached blocks
 *   of `blockTokens` tokens (vLLM's block hashing; the last token is always computed), and its
 *   whole blocks are cached afterwards, without eviction (the bench's working set is a few
 *   thousand tokens, far below a GPU's KV cache);
 * - a request that wants prompt logprobs (echo with logprobs) does not read the cache (vLLM v1
 *   recomputes the prompt to return its logprobs) but still fills it;
 * - each generated token costs one decode step (the first one included: one forward pass);
 * - GPU work is summed: requests are never batched together (Veil sends private prompts alone).
 */
import { createHash } from 'node:crypto';

export interface GpuCosts {
  requestSeconds: number;
  prefillSecondsPerToken: number;
  decodeSecondsPerToken: number;
  /** Tokens per cached block (vLLM's default block size: 16). */
  blockTokens?: number;
}

export interface GpuCounts {
  /** Every HTTP request (completions, tokenizer endpoints, model list). */
  requests: number;
  /** Requests the client sent with none of its others in flight: each costs a full latency. */
  roundTrips: number;
  completionRequests: number;
  /** Prompts in completion requests (a request may hold several). */
  completionPrompts: number;
  promptTokens: number;
  /** Prompt tokens the server had to compute (cache misses). */
  prefilledTokens: number;
  generatedTokens: number;
}

export const zeroCounts = (): GpuCounts => ({ requests: 0, roundTrips: 0, completionRequests: 0, completionPrompts: 0, promptTokens: 0, prefilledTokens: 0, generatedTokens: 0 });

export class SimulatedGpu {
  #counts = zeroCounts();
  readonly #cached = new Set<string>();
  readonly #block: number;

  constructor(readonly costs: GpuCosts) {
    this.#block = costs.blockTokens ?? 16;
  }

  /** A copy of the counts so far. */
  get counts(): GpuCounts {
    return { ...this.#counts };
  }

  /** A request reaches the server. */
  arrive(completion: boolean): void {
    this.#counts.requests++;
    if (completion) this.#counts.completionRequests++;
  }

  /** The client's fetch, telling the simulation when a request leaves: one sent while another of this client is in flight shares its latency. */
  clientFetch(fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
    let inFlight = 0;
    return async (input, init) => {
      if (inFlight++ === 0) this.#counts.roundTrips++;
      try {
        return await fetchImpl(input, init);
      } finally {
        inFlight--;
      }
    };
  }

  /** One prompt of a completion request: prefill what the cache lacks, cache its blocks, decode `generated` tokens. */
  complete(ids: readonly number[], readsCache: boolean, generated: number): void {
    const hashes: string[] = [];
    let parent = '';
    for (let end = this.#block; end <= ids.length; end += this.#block) {
      parent = createHash('sha1').update(parent).update(ids.slice(end - this.#block, end).join(',')).digest('hex');
      hashes.push(parent);
    }
    let hit = 0;
    if (readsCache) while (hit < hashes.length && this.#cached.has(hashes[hit])) hit++;
    const cachedTokens = Math.min(hit * this.#block, Math.max(ids.length - 1, 0));
    for (const h of hashes) this.#cached.add(h);
    const c = this.#counts;
    c.completionPrompts++;
    c.promptTokens += ids.length;
    c.prefilledTokens += ids.length - cachedTokens;
    c.generatedTokens += generated;
  }

  /** Forget the counts and the cache (a fresh server). */
  reset(): void {
    this.#counts = zeroCounts();
    this.#cached.clear();
  }
}

/** What `counts` would cost a server at `costs`. */
export function serverSeconds(counts: GpuCounts, costs: GpuCosts): number {
  return counts.roundTrips * costs.requestSeconds + counts.prefilledTokens * costs.prefillSecondsPerToken + counts.generatedTokens * costs.decodeSecondsPerToken;
}

const combined = (a: GpuCounts, b: GpuCounts, sign: 1 | -1): GpuCounts => {
  const out = zeroCounts();
  for (const key of Object.keys(out) as (keyof GpuCounts)[]) out[key] = a[key] + sign * b[key];
  return out;
};

/** The difference of two count snapshots. */
export const countsSince = (now: GpuCounts, before: GpuCounts): GpuCounts => combined(now, before, -1);

/** The sum of two counts. */
export const addCounts = (a: GpuCounts, b: GpuCounts): GpuCounts => combined(a, b, 1);
