/**
 * GGUF header reader and validator. Reads the header, every metadata key/value and every
 * tensor info from a random-access byte source and checks them against the file before
 * anything is handed to llama.cpp (which aborts the process on many malformed inputs):
 * magic and version, known value and tensor types, valid UTF-8, lengths that fit in the
 * file, power-of-two alignment, aligned tensor offsets, and tensor data that lies inside
 * the file (a truncated download fails here with a clear message).
 */
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GGML_TYPES, GgufValueType, alignUp, scalarSize, tensorByteSize } from './ggufTypes';

/** Random-access bytes: a file on disk (electron/services) or a buffer (tests). */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

export type GgufScalar = number | string | boolean;
/** Arrays longer than ARRAY_KEEP keep only their length (a vocabulary has ~10⁵ entries). */
export interface GgufArray {
  readonly itemType: GgufValueType;
  readonly length: number;
  readonly values?: GgufScalar[];
}
export type GgufValue = GgufScalar | GgufArray;

export interface GgufTensorInfo {
  name: string;
  dims: number[];
  type: number;
  /** Absolute byte offset of the tensor data in the file. */
  offset: number;
  byteSize: number;
}

export interface GgufHeader {
  version: number;
  metadata: Record<string, GgufValue>;
  tensors: GgufTensorInfo[];
  alignment: number;
  dataOffset: number;
  fileSize: number;
}

export class GgufFormatError extends Error {
  override readonly name = 'GgufFormatError';
}

const ARRAY_KEEP = 64;
const MAX_STRING = 64 * 1024 * 1024;
const MAX_DIMS = 4;
const CHUNK = 1 << 20;
const decoder = new TextDecoder('utf-8', { fatal: true });

class Cursor {
  private buf: Uint8Array = new Uint8Array(0);
  private bufStart = 0;
  pos = 0;

  constructor(private readonly source: ByteSource, private readonly signal?: AbortSignal) {}

  /** The next n bytes when already buffered (no await: a loop over many items stays synchronous). */
  private buffered(n: number): DataView | null {
    if (this.pos < this.bufStart || this.pos + n > this.bufStart + this.buf.length) return null;
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + (this.pos - this.bufStart), n);
    this.pos += n;
    return view;
  }

  /**
   * Skips `count` array items after the ones kept: fixed-size items by seeking; strings by
   * their lengths, read from the buffer (refilled, with a cancellation check, once per chunk),
   * each still checked to be UTF-8. A 60-million-item array costs no await per item.
   */
  async skipItems(type: GgufValueType, count: number, what: string): Promise<void> {
    if (type !== GgufValueType.STRING) {
      const bytes = count * scalarSize(type)!;
      if (bytes > this.remaining) throw new GgufFormatError(`file ends inside ${what} (truncated or corrupt)`);
      this.pos += bytes;
      return;
    }
    for (let i = 0; i < count; i++) {
      const lengthView = this.buffered(8) ?? (await this.refill(8, what));
      const high = lengthView.getUint32(4, true);
      const n = lengthView.getUint32(0, true);
      if (high !== 0 || n > Math.min(MAX_STRING, this.remaining)) throw new GgufFormatError(`${what}: an item claims more bytes than the file holds`);
      const view = this.buffered(n) ?? (await this.refill(n, what));
      const bytes = new Uint8Array(view.buffer, view.byteOffset, n);
      if (!isAscii(bytes)) {
        try {
          decoder.decode(bytes);
        } catch {
          throw new GgufFormatError(`${what}: an item is not valid UTF-8`);
        }
      }
    }
  }

  private async refill(n: number, what: string): Promise<DataView> {
    if (this.signal?.aborted) throw this.signal.reason ?? new Error('cancelled');
    return this.need(n, what);
  }

  get remaining(): number {
    return this.source.size - this.pos;
  }

  private async need(n: number, what: string): Promise<DataView> {
    if (this.pos + n > this.source.size) {
      throw new GgufFormatError(`file ends inside ${what} at byte ${this.pos} (needs ${n} more bytes, file has ${this.source.size}); the file is truncated or not a GGUF model`);
    }
    const end = this.bufStart + this.buf.length;
    if (this.pos < this.bufStart || this.pos + n > end) {
      const length = Math.max(n, CHUNK);
      this.buf = await this.source.read(this.pos, length);
      this.bufStart = this.pos;
      if (this.buf.length < n) throw new GgufFormatError(`could not read ${what} at byte ${this.pos}`);
    }
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + (this.pos - this.bufStart), n);
    this.pos += n;
    return view;
  }

  async u32(what: string): Promise<number> {
    return (await this.need(4, what)).getUint32(0, true);
  }

  async u64(what: string): Promise<number> {
    const v = (await this.need(8, what)).getBigUint64(0, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufFormatError(`${what} is implausibly large (${v})`);
    return Number(v);
  }

  async string(what: string): Promise<string> {
    const length = await this.u64(`${what} length`);
    if (length > MAX_STRING || length > this.remaining) throw new GgufFormatError(`${what} claims ${length} bytes, more than the file holds`);
    const view = await this.need(length, what);
    try {
      return decoder.decode(new Uint8Array(view.buffer, view.byteOffset, length));
    } catch {
      throw new GgufFormatError(`${what} is not valid UTF-8`);
    }
  }

  async scalar(type: GgufValueType, what: string): Promise<GgufScalar> {
    if (type === GgufValueType.STRING) return this.string(what);
    const size = scalarSize(type);
    if (size === undefined) throw new GgufFormatError(`${what} has unknown value type ${type}`);
    const v = await this.need(size, what);
    switch (type) {
      case GgufValueType.UINT8: return v.getUint8(0);
      case GgufValueType.INT8: return v.getInt8(0);
      case GgufValueType.BOOL: return v.getUint8(0) !== 0;
      case GgufValueType.UINT16: return v.getUint16(0, true);
      case GgufValueType.INT16: return v.getInt16(0, true);
      case GgufValueType.UINT32: return v.getUint32(0, true);
      case GgufValueType.INT32: return v.getInt32(0, true);
      case GgufValueType.FLOAT32: return v.getFloat32(0, true);
      case GgufValueType.FLOAT64: return v.getFloat64(0, true);
      case GgufValueType.UINT64: return bigToJson(v.getBigUint64(0, true));
      case GgufValueType.INT64: return bigToJson(v.getBigInt64(0, true));
      default: throw new GgufFormatError(`${what} has unknown value type ${type}`);
    }
  }
}

/** ASCII is valid UTF-8: checked byte by byte, far cheaper than a decoder call per short string. */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}

function bigToJson(v: bigint): number | string {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}

async function readValue(c: Cursor, type: number, key: string): Promise<GgufValue> {
  if (type !== GgufValueType.ARRAY) return c.scalar(type, `value of ${key}`);
  const itemType = await c.u32(`array type of ${key}`);
  if (itemType === GgufValueType.ARRAY) throw new GgufFormatError(`${key}: nested arrays are not supported`);
  const length = await c.u64(`array length of ${key}`);
  const minItem = itemType === GgufValueType.STRING ? 8 : scalarSize(itemType);
  if (minItem === undefined) throw new GgufFormatError(`${key}: unknown array item type ${itemType}`);
  if (length * minItem > c.remaining) throw new GgufFormatError(`${key}: array of ${length} items does not fit in the file (truncated or corrupt)`);
  const values: GgufScalar[] = [];
  for (let i = 0; i < Math.min(length, ARRAY_KEEP); i++) values.push(await c.scalar(itemType, `${key}[${i}]`));
  await c.skipItems(itemType, length - values.length, `the array ${key}`);
  return length <= ARRAY_KEEP ? { itemType, length, values } : { itemType, length };
}

/** Parse and validate the GGUF header; throws GgufFormatError with a clear message, or the signal's reason once aborted. */
export async function readGgufHeader(source: ByteSource, { signal }: { signal?: AbortSignal } = {}): Promise<GgufHeader> {
  const c = new Cursor(source, signal);
  if (source.size < 24) throw new GgufFormatError(`file is ${source.size} bytes, too small to be a GGUF model`);
  const magic = await c.u32('magic');
  if (magic !== GGUF_MAGIC) throw new GgufFormatError('not a GGUF file (the first four bytes are not "GGUF")');
  const version = await c.u32('version');
  if (version !== 2 && version !== 3) throw new GgufFormatError(`unsupported GGUF version ${version} (supported: 2, 3)`);
  const tensorCount = await c.u64('tensor count');
  const kvCount = await c.u64('metadata count');
  if (tensorCount * 24 > source.size || kvCount * 12 > source.size) throw new GgufFormatError(`header claims ${tensorCount} tensors and ${kvCount} metadata entries, more than the file can hold`);

  const metadata: Record<string, GgufValue> = Object.create(null);
  for (let i = 0; i < kvCount; i++) {
    const key = await c.string(`metadata key #${i}`);
    if (Object.hasOwn(metadata, key)) throw new GgufFormatError(`duplicate metadata key ${key}`);
    const type = await c.u32(`type of ${key}`);
    metadata[key] = await readValue(c, type, key);
  }

  const alignment = metadata['general.alignment'] ?? GGUF_DEFAULT_ALIGNMENT;
  if (typeof alignment !== 'number' || alignment < 1 || (alignment & (alignment - 1)) !== 0) throw new GgufFormatError(`general.alignment ${String(alignment)} is not a power of two`);

  const raw: Omit<GgufTensorInfo, 'byteSize'>[] = [];
  const names = new Set<string>();
  for (let i = 0; i < tensorCount; i++) {
    const name = await c.string(`tensor #${i} name`);
    if (names.has(name)) throw new GgufFormatError(`duplicate tensor ${name}`);
    names.add(name);
    const nDims = await c.u32(`tensor ${name} dimension count`);
    if (nDims < 1 || nDims > MAX_DIMS) throw new GgufFormatError(`tensor ${name} has ${nDims} dimensions (1–${MAX_DIMS} allowed)`);
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(await c.u64(`tensor ${name} dimension ${d}`));
    const type = await c.u32(`tensor ${name} type`);
    const offset = await c.u64(`tensor ${name} offset`);
    raw.push({ name, dims, type, offset });
  }
  const dataOffset = alignUp(c.pos, alignment);
  const tensors = raw.map((t) => {
    if (!GGML_TYPES.has(t.type)) throw new GgufFormatError(`tensor ${t.name} has unknown type ${t.type}`);
    if (t.dims.some((d) => d < 1)) throw new GgufFormatError(`tensor ${t.name} has an empty dimension`);
    const byteSize = tensorByteSize(t.type, t.dims);
    if (typeof byteSize === 'string') throw new GgufFormatError(`tensor ${t.name}: ${byteSize}`);
    if (t.offset % alignment !== 0) throw new GgufFormatError(`tensor ${t.name} data offset ${t.offset} is not aligned to ${alignment}`);
    const offset = dataOffset + t.offset;
    if (offset + byteSize > source.size) {
      throw new GgufFormatError(`tensor ${t.name} needs bytes ${offset}–${offset + byteSize} but the file has only ${source.size}; the file is truncated`);
    }
    return { ...t, offset, byteSize };
  });
  return { version, metadata, tensors, alignment, dataOffset, fileSize: source.size };
}
