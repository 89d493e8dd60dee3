/** Reading a server's logprob cap from its refusals and short replies, and retrying under it. */
import { describe, expect, it } from 'vitest';
import { LogprobShortfall, lowerCap, statedCap, withLogprobCap } from '../../../../electron/services/model/openai/logprobCap';
import { OpenAiClient, RemoteServerError } from '../../../../electron/services/model/openai/openaiClient';

const refusal = (detail: string, status = 400) => new RemoteServerError(`POST /v1/completions → HTTP ${status}: ${detail}`, status, detail);

describe('logprob caps', () => {
  it('reads the cap a refusal names (OpenAI, vLLM wording), ignoring numbers at or above what was asked', () => {
    expect(statedCap('logprobs must be at most 5', 20)).toBe(5);
    expect(statedCap('Requested sample logprobs of 21, which is greater than max allowed: 20', 21)).toBe(20);
    expect(statedCap('logprobs must be between 0 and 5', 10)).toBe(5);
    expect(statedCap('too many logprobs', 10)).toBeUndefined();
    expect(statedCap('at most 50', 10)).toBeUndefined();
  });

  it('lowers only for refusals about logprobs or short replies; halves when no cap is named', () => {
    expect(lowerCap(refusal('logprobs must be at most 5'), 20)).toBe(5);
    expect(lowerCap(refusal('too many logprobs requested', 422), 20)).toBe(10);
    expect(lowerCap(refusal('logprobs too large'), 1)).toBeUndefined();
    expect(lowerCap(refusal('model not found'), 20)).toBeUndefined();
    expect(lowerCap(refusal('logprobs broke the server', 500), 20)).toBeUndefined();
    expect(lowerCap(new LogprobShortfall(7, 20), 20)).toBe(7);
    expect(lowerCap(new LogprobShortfall(0, 20), 20)).toBeUndefined();
    expect(lowerCap(new Error('logprobs'), 20)).toBeUndefined();
  });

  it('retries under the lowered cap until the server accepts, and never raises it', async () => {
    const client = new OpenAiClient({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
    expect(client.maxLogprobs).toBe(20);
    const asked: number[] = [];
    const result = await withLogprobCap(client, async (cap) => {
      asked.push(cap);
      if (cap > 3) throw refusal('logprobs exceed the limit');
      return cap;
    });
    expect(asked).toEqual([20, 10, 5, 2]);
    expect(result).toBe(2);
    client.lowerMaxLogprobs(50);
    expect(client.maxLogprobs).toBe(2);
    await expect(withLogprobCap(client, async () => Promise.reject(refusal('model not found')))).rejects.toThrow(/model not found/);
    expect(JSON.stringify(client)).toBe('{"baseUrl":"http://127.0.0.1:1/v1","model":"m","hasApiKey":false,"maxLogprobs":2}');
  });
});
