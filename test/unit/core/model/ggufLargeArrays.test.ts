/**
 * Bounded GGUF parsing: an array of tens of millions of items is skipped by seeking (fixed-size
 * items) or by its lengths within buffered chunks (strings), never one await per item (a 60M-item
 * array took 48 s in `veil model info`), and reading stops when the signal is aborted.
 */
import { describe, expect, it } from 'vitest';
import { bufferSource, GgufFormatError, readGgufHeader, type ByteSource } from '../../../../core/model/gguf/ggufReader';
import { GgufValueType } from '../../../../core/model/gguf/ggufTypes';

/** A GGUF v3 file with no tensors and one array key "big" whose items are `items` (already encoded). */
function arrayGguf(itemType: GgufValueType, length: number, items: Uint8Array): Uint8Array {
  const key = new TextEncoder().encode('big');
  const head = new Uint8Array(4 + 4 + 8 + 8 + 8 + key.length + 4 + 4 + 8);
  const v = new DataView(head.buffer);
  let o = 0;
  v.setUint32(o, 0x46554747, true); o += 4;
  v.setUint32(o, 3, true); o += 4;
  v.setBigUint64(o, 0n, true); o += 8; // tensors
  v.setBigUint64(o, 1n, true); o += 8; // metadata entries
  v.setBigUint64(o, BigInt(key.length), true); o += 8;
  head.set(key, o); o += key.length;
  v.setUint32(o, GgufValueType.ARRAY, true); o += 4;
  v.setUint32(o, itemType, true); o += 4;
  v.setBigUint64(o, BigInt(length), true);
  const file = new Uint8Array(head.length + items.length);
  file.set(head);
  file.set(items, head.length);
  return file;
}

/** Counts the bytes the reader asks for. */
function counting(source: ByteSource): ByteSource & { bytesRead: number; reads: number } {
  const counted = { size: source.size, bytesRead: 0, reads: 0, read: async (offset: number, length: number) => {
    const bytes = await source.read(offset, length);
    counted.bytesRead += bytes.length;
    counted.reads += 1;
    return bytes;
  } };
  return counted;
}

/** `count` one-character strings: u64 length 1, then "a". */
function shortStrings(count: number): Uint8Array {
  const items = new Uint8Array(count * 9);
  const v = new DataView(items.buffer);
  for (let i = 0; i < count; i++) {
    v.setBigUint64(i * 9, 1n, true);
    items[i * 9 + 8] = 0x61;
  }
  return items;
}

describe('GGUF arrays', () => {
  it('skips a 60-million-item array of fixed-size items by seeking: the items are never read', async () => {
    const LENGTH = 60_000_000;
    const source = counting(bufferSource(arrayGguf(GgufValueType.UINT8, LENGTH, new Uint8Array(LENGTH))));
    const header = await readGgufHeader(source);
    expect(header.metadata.big).toEqual({ itemType: GgufValueType.UINT8, length: LENGTH });
    expect(source.bytesRead).toBeLessThan(4 << 20); // the first chunk (1 MiB) and the last, not 60 MB
  });

  it('reads a long string array chunk by chunk (each item still checked) and stops once cancelled', async () => {
    const COUNT = 1_000_000; // 9 MB of items: about 9 chunks
    const file = arrayGguf(GgufValueType.STRING, COUNT, shortStrings(COUNT));
    const whole = counting(bufferSource(file));
    expect((await readGgufHeader(whole)).metadata.big).toEqual({ itemType: GgufValueType.STRING, length: COUNT });
    expect(whole.reads).toBeLessThan(20);

    const controller = new AbortController();
    const source = bufferSource(file);
    const cancelling: ByteSource = { size: source.size, read: (offset, length) => (controller.abort(new Error('cancelled by the analyst')), source.read(offset, length)) };
    await expect(readGgufHeader(cancelling, { signal: controller.signal })).rejects.toThrow('cancelled by the analyst');

    const broken = shortStrings(COUNT);
    broken[(COUNT - 1) * 9 + 8] = 0xff; // the last item is not UTF-8
    await expect(readGgufHeader(bufferSource(arrayGguf(GgufValueType.STRING, COUNT, broken)))).rejects.toThrow(GgufFormatError);
  });

  it('refuses an array whose items do not fit in the file', async () => {
    await expect(readGgufHeader(bufferSource(arrayGguf(GgufValueType.UINT32, 1000, new Uint8Array(100))))).rejects.toThrow(/does not fit in the file/);
  });
});
