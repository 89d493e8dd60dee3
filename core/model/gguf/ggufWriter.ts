/**
 * A minimal GGUF v3 writer: header, metadata key/value pairs, tensor infos whose data
 * offsets are padded to the alignment (32 unless `general.alignment` says otherwise),
 * then the tensor data. Used to generate tiny test models; writes F32, F16 and Q8_0
 * tensors (Q8_0 as llama.cpp's reference quantiser does: blocks of 32 values along the
 * first dimension, one F16 scale amax/127 and 32 rounded int8 values per block).
 */
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GgmlType, GgufValueType, alignUp, scalarSize } from './ggufTypes';

export type GgufScalarType = Exclude<GgufValueType, GgufValueType.ARRAY>;

export type GgufEntry =
  | { key: string; type: Exclude<GgufScalarType, GgufValueType.STRING | GgufValueType.BOOL>; value: number | bigint }
  | { key: string; type: GgufValueType.STRING; value: string }
  | { key: string; type: GgufValueType.BOOL; value: boolean }
  | { key: string; type: GgufValueType.ARRAY; itemType: GgufScalarType; value: readonly (number | bigint | string | boolean)[] };

export interface GgufTensorSpec {
  name: string;
  /** Dimensions, ne0 first (the innermost, contiguous one), as GGUF stores them. */
  dims: readonly number[];
  type: (typeof GgmlType)[keyof typeof GgmlType];
  data: Float32Array;
}

const encoder = new TextEncoder();

class ByteWriter {
  private buffer = new Uint8Array(1 << 16);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
  }
  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  u64(v: number | bigint): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  scalar(type: GgufScalarType, v: number | bigint | string | boolean): void {
    const size = scalarSize(type);
    if (type === GgufValueType.STRING) return this.string(String(v));
    this.reserve(size ?? 0);
    const at = this.length;
    switch (type) {
      case GgufValueType.UINT8: this.view.setUint8(at, Number(v)); break;
      case GgufValueType.INT8: this.view.setInt8(at, Number(v)); break;
      case GgufValueType.BOOL: this.view.setUint8(at, v ? 1 : 0); break;
      case GgufValueType.UINT16: this.view.setUint16(at, Number(v), true); break;
      case GgufValueType.INT16: this.view.setInt16(at, Number(v), true); break;
      case GgufValueType.UINT32: this.view.setUint32(at, Number(v), true); break;
      case GgufValueType.INT32: this.view.setInt32(at, Number(v), true); break;
      case GgufValueType.FLOAT32: this.view.setFloat32(at, Number(v), true); break;
      case GgufValueType.UINT64: this.view.setBigUint64(at, BigInt(v), true); break;
      case GgufValueType.INT64: this.view.setBigInt64(at, BigInt(v), true); break;
      case GgufValueType.FLOAT64: this.view.setFloat64(at, Number(v), true); break;
    }
    this.length += size ?? 0;
  }
  string(s: string): void {
    const bytes = encoder.encode(s);
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }
  padTo(alignment: number): void {
    const target = alignUp(this.length, alignment);
    this.reserve(target - this.length);
    this.buffer.fill(0, this.length, target);
    this.length = target;
  }
  result(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

const Q8_BLOCK = 32;
const Q8_BLOCK_BYTES = 2 + Q8_BLOCK;

/** C's roundf: halves away from zero. */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** Q8_0 blocks of `data` (its length a multiple of 32). */
export function quantiseQ8_0(data: Float32Array): Uint8Array {
  const blocks = data.length / Q8_BLOCK;
  const out = new Uint8Array(blocks * Q8_BLOCK_BYTES);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const values = data.subarray(b * Q8_BLOCK, (b + 1) * Q8_BLOCK);
    const amax = values.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const d = amax / 127;
    view.setUint16(b * Q8_BLOCK_BYTES, float32ToFloat16(d), true);
    for (let j = 0; j < Q8_BLOCK; j++) view.setInt8(b * Q8_BLOCK_BYTES + 2 + j, d ? roundHalfAway(values[j] / d) : 0);
  }
  return out;
}

function tensorBytes(spec: GgufTensorSpec): Uint8Array {
  const elements = spec.dims.reduce((a, b) => a * b, 1);
  if (spec.data.length !== elements) throw new Error(`tensor ${spec.name}: ${spec.data.length} values for ${elements} elements`);
  if (spec.type === GgmlType.F32) return new Uint8Array(spec.data.buffer.slice(spec.data.byteOffset, spec.data.byteOffset + spec.data.byteLength));
  if (spec.type === GgmlType.Q8_0) {
    if (spec.dims[0] % Q8_BLOCK !== 0) throw new Error(`tensor ${spec.name}: Q8_0 needs a first dimension that is a multiple of ${Q8_BLOCK}`);
    return quantiseQ8_0(spec.data);
  }
  const out = new Uint8Array(elements * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < elements; i++) view.setUint16(i * 2, float32ToFloat16(spec.data[i]), true);
  return out;
}

/** IEEE half-precision bits of `value` (round to nearest even; no subnormal output below 2^-24). */
export function float32ToFloat16(value: number): number {
  const f32 = new Float32Array([value]);
  const bits = new Uint32Array(f32.buffer)[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = ((bits >>> 23) & 0xff) - 127 + 15;
  let mant = bits & 0x7fffff;
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant = (mant | 0x800000) >> (1 - exp);
    return sign | ((mant + 0x1000) >> 13);
  }
  const half = sign | (exp << 10) | (mant >> 13);
  const rest = mant & 0x1fff;
  return rest > 0x1000 || (rest === 0x1000 && half & 1) ? half + 1 : half;
}

/** Serialise a GGUF v3 file. */
export function writeGguf(entries: readonly GgufEntry[], tensors: readonly GgufTensorSpec[]): Uint8Array {
  const alignmentEntry = entries.find((e) => e.key === 'general.alignment');
  const alignment = alignmentEntry ? Number(alignmentEntry.value) : GGUF_DEFAULT_ALIGNMENT;
  const w = new ByteWriter();
  w.u32(GGUF_MAGIC);
  w.u32(3);
  w.u64(tensors.length);
  w.u64(entries.length);
  for (const entry of entries) {
    w.string(entry.key);
    w.u32(entry.type);
    if (entry.type === GgufValueType.ARRAY) {
      w.u32(entry.itemType);
      w.u64(entry.value.length);
      for (const item of entry.value) w.scalar(entry.itemType, item);
    } else {
      w.scalar(entry.type, entry.value);
    }
  }
  const blobs = tensors.map(tensorBytes);
  let offset = 0;
  tensors.forEach((tensor, i) => {
    w.string(tensor.name);
    w.u32(tensor.dims.length);
    for (const d of tensor.dims) w.u64(d);
    w.u32(tensor.type);
    w.u64(offset);
    offset = alignUp(offset + blobs[i].length, alignment);
  });
  w.padTo(alignment);
  for (const blob of blobs) {
    w.bytes(blob);
    w.padTo(alignment);
  }
  return w.result();
}
