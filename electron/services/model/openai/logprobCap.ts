/**
 * Servers cap the logprobs they return per position (OpenAI: 5, vLLM: 20 by default) and
 * do not say so up front: some refuse a larger request with HTTP 400 ("logprobs must be at
 * most 5", "… greater than max allowed: 20"), others silently return fewer. Requests that
 * need many logprobs run through `withLogprobCap`, which lowers the client's cap to what
 * the server allows — the number its refusal names, else half, or the count it returned —
 * and tries again. The model connects with such a request, so the cap is known early.
 */
import { RemoteServerError, type OpenAiClient } from './openaiClient';

/** A reply carried fewer logprobs than the request asked for. */
export class LogprobShortfall extends Error {
  override readonly name = 'LogprobShortfall';
  constructor(
    readonly returned: number,
    asked: number,
  ) {
    super(`the server returned ${returned} logprobs per position where ${asked} were asked for`);
  }
}

/** The cap a refusal names: the largest number in its text that is below what was asked. */
export function statedCap(detail: string, asked: number): number | undefined {
  const numbers = (detail.match(/\d+/g) ?? []).map(Number).filter((n) => n >= 1 && n < asked);
  return numbers.length ? Math.max(...numbers) : undefined;
}

/** The lower cap to retry with after `error`, or undefined when the error is not about the cap. */
export function lowerCap(error: unknown, cap: number): number | undefined {
  if (error instanceof LogprobShortfall) return error.returned >= 1 && error.returned < cap ? error.returned : undefined;
  const refused = error instanceof RemoteServerError && (error.status === 400 || error.status === 422) && /logprob/i.test(error.detail);
  if (!refused || cap <= 1) return undefined;
  return statedCap(error.detail, cap) ?? Math.floor(cap / 2);
}

/** Run `attempt` with the client's current cap, lowering it and retrying while the server allows fewer. */
export async function withLogprobCap<T>(client: OpenAiClient, attempt: (cap: number) => Promise<T>): Promise<T> {
  for (;;) {
    const cap = client.maxLogprobs;
    try {
      return await attempt(cap);
    } catch (error) {
      const lower = lowerCap(error, cap);
      if (lower === undefined) throw error;
      client.lowerMaxLogprobs(lower);
    }
  }
}
