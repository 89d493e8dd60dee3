/** GGUF writer/reader: the tiny llama model round-trips; malformed files fail with clear messages. */
import { describe, expect, it } from 'vitest';
import { bufferSource, GgufFormatError, readGgufHeader } from '../../../../core/model/gguf/ggufReader';
import { summariseGguf } from '../../../../core/model/gguf/ggufSummary';
import { GgufValueType } from '../../../../core/model/gguf/ggufTypes';
import { float32ToFloat16, quantiseQ8_0, writeGguf } from '../../../../core/model/gguf/ggufWriter';
import { makeTinyLlamaGguf, tinyVocabulary } from '../../../../core/model/gguf/tinyLlama';

const tiny = makeTinyLlamaGguf({ seed: 3 });

/** IEEE half-precision bits → number (normal values only). */
function halfToFloat(bits: number): number {
  const exp = (bits >> 10) & 0x1f;
  return (bits & 0x8000 ? -1 : 1) * 2 ** (exp - 15) * (1 + (bits & 0x3ff) / 1024);
}

async function expectFormatError(bytes: Uint8Array, pattern: RegExp): Promise<void> {
  const error = await readGgufHeader(bufferSource(bytes)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GgufFormatError);
  expect((error as Error).message).toMatch(pattern);
}

describe('tiny llama GGUF', () => {
  it('has a GGUF v3 header, 32-byte aligned tensor data and the llama metadata', async () => {
    const header = await readGgufHeader(bufferSource(tiny));
    expect(header.version).toBe(3);
    expect(header.alignment).toBe(32);
    expect(header.dataOffset % 32).toBe(0);
    for (const t of header.tensors) expect((t.offset - header.dataOffset) % 32).toBe(0);
    const m = summariseGguf(header);
    const vocab = tinyVocabulary();
    expect(m).toMatchObject({ architecture: 'llama', name: 'veil-tiny-llama', quantisation: 'F32', contextLength: 2048, embeddingLength: 64, blockCount: 2, vocabularySize: vocab.tokens.length, tokenizerModel: 'llama', ggufVersion: 3 });
    expect(m.chatTemplate).toContain('add_generation_prompt');
    expect(m.parameterCount).toBe(header.tensors.reduce((a, t) => a + t.dims.reduce((x, y) => x * y, 1), 0));
    expect(vocab.tokens.filter((t) => /^<0x[0-9A-F]{2}>$/.test(t))).toHaveLength(256);
    expect(header.metadata['tokenizer.ggml.bos_token_id']).toBe(1);
    expect(header.metadata['tokenizer.ggml.eos_token_id']).toBe(2);
    expect(header.metadata['llama.feed_forward_length']).toBe(128);
    expect(header.metadata['llama.attention.head_count']).toBe(4);
    expect(header.metadata['llama.attention.head_count_kv']).toBe(2);
    expect(header.metadata['llama.attention.layer_norm_rms_epsilon']).toBe(Math.fround(1e-5)); // stored as FLOAT32
    // Arrays this long are kept as type and length only.
    expect(header.metadata['tokenizer.ggml.scores']).toEqual({ itemType: GgufValueType.FLOAT32, length: vocab.tokens.length });
    expect(header.metadata['tokenizer.ggml.token_type']).toEqual({ itemType: GgufValueType.INT32, length: vocab.tokens.length });
  });

  it('is deterministic in its seed', () => {
    expect(Buffer.from(makeTinyLlamaGguf({ seed: 3 })).equals(tiny)).toBe(true);
    expect(Buffer.from(makeTinyLlamaGguf({ seed: 4 })).equals(tiny)).toBe(false);
  });

  it('writes F16 weights on request', async () => {
    const m = summariseGguf(await readGgufHeader(bufferSource(makeTinyLlamaGguf({ weights: 'F16' }))));
    expect(m.quantisation).toBe('F16');
    expect(float32ToFloat16(1)).toBe(0x3c00);
    expect(float32ToFloat16(-2)).toBe(0xc000);
    expect(float32ToFloat16(65504)).toBe(0x7bff);
    expect(float32ToFloat16(1e6)).toBe(0x7c00);
  });

  it('writes Q8_0 weights: quantisation name, tensor types and sizes, values within half a step', async () => {
    const f32 = await readGgufHeader(bufferSource(tiny));
    const bytes = makeTinyLlamaGguf({ seed: 3, weights: 'Q8_0' });
    const header = await readGgufHeader(bufferSource(bytes));
    const m = summariseGguf(header);
    expect(m.quantisation).toBe('Q8_0');
    expect(header.metadata['general.file_type']).toBe(7);
    expect(m.parameterCount).toBe(summariseGguf(f32).parameterCount);
    for (const t of header.tensors) {
      const elements = t.dims.reduce((a, b) => a * b, 1);
      const matrix = t.dims.length === 2;
      expect(t.type).toBe(matrix ? 8 : 0);
      expect(t.byteSize).toBe(matrix ? (elements / 32) * 34 : elements * 4);
    }
    // Q8_0 stores 34 bytes per 32 weights instead of 128 (F32) or 64 (F16).
    const data = (h: typeof header) => h.tensors.reduce((a, t) => a + t.byteSize, 0);
    expect(data(header) / data(f32)).toBeCloseTo(0.27, 2);
    expect(bytes.length).toBeLessThan(makeTinyLlamaGguf({ seed: 3, weights: 'F16' }).length);
    expect(m.fileSize).toBe(bytes.length);

    const values = Float32Array.from({ length: 64 }, (_, i) => Math.sin(i) * (i < 32 ? 0.01 : 3));
    const q = new DataView(quantiseQ8_0(values).buffer);
    for (let b = 0; b < 2; b++) {
      const amax = Math.max(...values.subarray(b * 32, b * 32 + 32).map(Math.abs));
      const d = halfToFloat(q.getUint16(b * 34, true));
      expect(Math.abs(d / (amax / 127) - 1)).toBeLessThan(2 ** -11); // the scale is an F16
      // Half a quantisation step, plus the F16 rounding of the scale times up to 127.
      for (let j = 0; j < 32; j++) expect(Math.abs(q.getInt8(b * 34 + 2 + j) * d - values[b * 32 + j])).toBeLessThanOrEqual(0.57 * d);
    }
    expect(() => makeTinyLlamaGguf({ weights: 'Q8_0', embeddingLength: 48, headCount: 4 })).toThrow(/multiple of 32/);
  });
});

describe('GGUF validation', () => {
  it('rejects truncated files, naming the tensor that runs past the end', async () => {
    await expectFormatError(tiny.subarray(0, tiny.length - 100), /truncated/);
    await expectFormatError(tiny.subarray(0, 5000), /truncated|file ends/);
    await expectFormatError(tiny.subarray(0, 10), /too small/);
  });

  it('rejects a wrong magic, version or value type', async () => {
    const bad = tiny.slice();
    bad[0] = 0x47 + 1;
    await expectFormatError(bad, /not a GGUF file/);
    const v9 = tiny.slice();
    new DataView(v9.buffer).setUint32(4, 9, true);
    await expectFormatError(v9, /unsupported GGUF version 9/);
    const header = writeGguf([{ key: 'general.architecture', type: GgufValueType.STRING, value: 'llama' }], []);
    const weird = header.slice();
    const typeOffset = 4 + 4 + 8 + 8 + 8 + 'general.architecture'.length;
    new DataView(weird.buffer).setUint32(typeOffset, 77, true);
    await expectFormatError(weird, /unknown value type 77/);
  });

  it('rejects absurd counts and lengths instead of allocating them', async () => {
    const huge = tiny.slice();
    new DataView(huge.buffer).setBigUint64(16, 1n << 40n, true);
    await expectFormatError(huge, /more than the file can hold/);
  });

  it('rejects unknown tensor types and misaligned offsets', async () => {
    const bytes = writeGguf(
      [{ key: 'general.architecture', type: GgufValueType.STRING, value: 'llama' }],
      [{ name: 'a', dims: [8], type: 0, data: new Float32Array(8) }],
    );
    const view = new DataView(bytes.buffer);
    // Tensor info: name (8 + 1 bytes), n_dims u32, dim u64, type u32, offset u64 — right before the padding.
    const infoStart = 4 + 4 + 8 + 8 + (8 + 'general.architecture'.length + 4 + 8 + 5);
    const typeAt = infoStart + 9 + 4 + 8;
    const badType = bytes.slice();
    new DataView(badType.buffer).setUint32(typeAt, 5, true);
    await expectFormatError(badType, /unknown type 5/);
    const misaligned = bytes.slice();
    new DataView(misaligned.buffer).setBigUint64(typeAt + 4, 4n, true);
    await expectFormatError(misaligned, /not aligned/);
    expect(view.getUint32(typeAt, true)).toBe(0);
  });

  it('requires general.architecture', async () => {
    const header = await readGgufHeader(bufferSource(writeGguf([], [])));
    expect(() => summariseGguf(header)).toThrow(/general.architecture is missing/);
  });
});
