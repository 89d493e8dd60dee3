/**
 * Hyperparameter validation on generated malformed GGUFs: every impossible value is
 * refused with a message naming the key, before llama.cpp (which aborts on several of
 * them) sees the file; legitimate variations (explicit key length, per-layer arrays,
 * architectures without a feed-forward network) pass.
 */
import { describe, expect, it } from 'vitest';
import { bufferSource, GgufFormatError, readGgufHeader } from '../../../../core/model/gguf/ggufReader';
import { summariseGguf } from '../../../../core/model/gguf/ggufSummary';
import { GgufValueType } from '../../../../core/model/gguf/ggufTypes';
import type { GgufEntry } from '../../../../core/model/gguf/ggufWriter';
import { makeTinyLlamaGguf } from '../../../../core/model/gguf/tinyLlama';

const u32 = (key: string, value: number): GgufEntry => ({ key, type: GgufValueType.UINT32, value });

async function summarise(overrides: GgufEntry[]) {
  return summariseGguf(await readGgufHeader(bufferSource(makeTinyLlamaGguf({ metadataOverrides: overrides }))));
}

async function expectInvalid(overrides: GgufEntry[], message: RegExp): Promise<void> {
  const error = await summarise(overrides).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GgufFormatError);
  expect((error as Error).message).toMatch(/^invalid model metadata: /);
  expect((error as Error).message).toMatch(message);
}

describe('GGUF hyperparameter validation', () => {
  it('accepts the tiny llama model', async () => {
    expect((await summarise([])).blockCount).toBe(2);
  });

  it('refuses zero or mismatched attention heads', async () => {
    await expectInvalid([u32('llama.attention.head_count', 0)], /llama\.attention\.head_count is 0; a model needs at least one attention head/);
    await expectInvalid([u32('llama.attention.head_count_kv', 0)], /llama\.attention\.head_count_kv is 0/);
    await expectInvalid([u32('llama.attention.head_count_kv', 3)], /head_count_kv \(3\) does not divide llama\.attention\.head_count \(4\)/);
    await expectInvalid([u32('llama.attention.head_count', 6)], /head_count \(6\) does not divide llama\.embedding_length \(64\)/);
  });

  it('refuses impossible block counts, context and embedding lengths, and feed-forward lengths', async () => {
    await expectInvalid([u32('llama.block_count', 0)], /llama\.block_count is 0; it must be between 1 and 512/);
    await expectInvalid([u32('llama.block_count', 600)], /llama\.block_count is 600/);
    await expectInvalid([u32('llama.context_length', 0)], /llama\.context_length is 0; it must be at least 1/);
    await expectInvalid([u32('llama.embedding_length', 0)], /llama\.embedding_length is 0/);
    await expectInvalid([{ key: 'llama.context_length', type: GgufValueType.STRING, value: 'long' }], /llama\.context_length is "long"/);
    await expectInvalid([u32('llama.feed_forward_length', 0)], /llama\.feed_forward_length is 0/);
    await expectInvalid([{ key: 'llama.block_count', type: GgufValueType.FLOAT32, value: 2.5 }], /llama\.block_count is 2\.5/);
  });

  it('refuses mixture-of-experts counts llama.cpp would abort on', async () => {
    await expectInvalid([u32('llama.expert_count', 4), u32('llama.expert_used_count', 0)], /expert_used_count is 0; it must be between 1 and llama\.expert_count \(4\)/);
    await expectInvalid([u32('llama.expert_count', 2), u32('llama.expert_used_count', 4)], /expert_used_count is 4/);
    await expectInvalid([u32('llama.expert_count', 2)], /expert_used_count is missing/);
  });

  it('refuses a missing key and an empty vocabulary', async () => {
    const arch = { key: 'general.architecture', type: GgufValueType.STRING, value: 'qwen2' } as const;
    await expectInvalid([arch], /qwen2\.block_count is missing/);
    await expectInvalid([{ key: 'tokenizer.ggml.tokens', type: GgufValueType.ARRAY, itemType: GgufValueType.STRING, value: [] }], /tokenizer\.ggml\.tokens is empty/);
  });

  it('accepts an explicit key length, per-layer arrays and architectures without a feed-forward network', async () => {
    const base = await summarise([]);
    // What the override leaves alone must read back unchanged (only the file grows by the added key).
    const unchanged = { ...base, fileSize: expect.any(Number) };

    const keyLength = [u32('llama.attention.head_count', 6), u32('llama.attention.key_length', 16)];
    const withKeyLength = await readGgufHeader(bufferSource(makeTinyLlamaGguf({ metadataOverrides: keyLength })));
    expect(withKeyLength.metadata['llama.attention.head_count']).toBe(6); // 6 does not divide 64: only the key length lets it pass
    expect(withKeyLength.metadata['llama.attention.key_length']).toBe(16);
    expect(summariseGguf(withKeyLength)).toEqual(unchanged);

    const perLayer = { key: 'llama.attention.head_count_kv', type: GgufValueType.ARRAY, itemType: GgufValueType.UINT32, value: [2, 0] } as const;
    const withPerLayer = await readGgufHeader(bufferSource(makeTinyLlamaGguf({ metadataOverrides: [perLayer] })));
    expect(withPerLayer.metadata['llama.attention.head_count_kv']).toEqual({ itemType: GgufValueType.UINT32, length: 2, values: [2, 0] });
    expect(summariseGguf(withPerLayer)).toEqual(unchanged);

    const mamba: GgufEntry[] = [
      { key: 'general.architecture', type: GgufValueType.STRING, value: 'mamba' },
      u32('mamba.block_count', 2),
      u32('mamba.context_length', 1_048_576),
      u32('mamba.embedding_length', 64),
      u32('mamba.feed_forward_length', 0),
    ];
    expect(await summarise(mamba)).toMatchObject({ architecture: 'mamba', blockCount: 2, contextLength: 1_048_576, embeddingLength: 64 });
  });
});
