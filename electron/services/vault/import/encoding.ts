/**
 * Text encoding of imported files. Veil reads UTF-8 (with or without a BOM) only: the head
 * of a file is sniffed for UTF-16 / binary content and for invalid UTF-8 (with a Latin-1 /
 * Windows-1252 explanation), the whole stream is checked chunk by chunk (sequences split
 * across chunks are carried over), and decoding replaces invalid bytes with U+FFFD — rows
 * that contain it are reported as undecodable.
 */
import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import type { EncodingVerdict } from '../../../shared/api/vaultFiles';

export const REPLACEMENT = '\uFFFD';
const RESAVE = 're-save it as UTF-8 (in a spreadsheet: "CSV UTF-8"; in an editor: "Save with encoding… UTF-8")';

/** Bytes up to the end of the last complete UTF-8 sequence (at most 3 trailing bytes are held back). */
export function completeLength(b: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const c = b[b.length - back];
    if (c < 0x80) return b.length;
    if (c >= 0xc0) return (c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2) > back ? b.length - back : b.length;
  }
  return b.length;
}

/** Offset of the first byte that is not valid UTF-8 (call only when `isUtf8` failed). */
function firstInvalidByte(body: Buffer): number {
  const text = body.toString('utf8');
  let bytes = 0;
  let from = 0;
  for (let i = text.indexOf(REPLACEMENT); i >= 0; i = text.indexOf(REPLACEMENT, i + 1)) {
    bytes += Buffer.byteLength(text.slice(from, i));
    from = i;
    const genuine = body[bytes] === 0xef && body[bytes + 1] === 0xbf && body[bytes + 2] === 0xbd;
    if (!genuine) return bytes;
  }
  return body.length;
}

/** Streaming validity check: remembers where the first invalid byte is. */
export class Utf8Check {
  private carry: Buffer = Buffer.alloc(0);
  private offset = 0;
  firstInvalid: number | null = null;

  push(chunk: Buffer): void {
    if (this.firstInvalid !== null) return;
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = completeLength(bytes);
    const body = bytes.subarray(0, end);
    if (!isUtf8(body)) this.firstInvalid = this.offset + firstInvalidByte(body);
    this.offset += end;
    this.carry = Buffer.from(bytes.subarray(end));
  }

  end(): void {
    if (this.carry.length > 0 && this.firstInvalid === null) this.firstInvalid = this.offset;
  }
}

function invalidVerdict(offset: number): EncodingVerdict {
  return {
    ok: false,
    encoding: 'windows-1252',
    message: `the file is not valid UTF-8 (first bad byte at offset ${offset}); it looks like Latin-1 / Windows-1252: ${RESAVE}`,
  };
}

/** The verdict for a whole file once `check` has seen all of it. */
export function streamVerdict(check: Utf8Check, bom: boolean): EncodingVerdict {
  if (check.firstInvalid !== null) return invalidVerdict(check.firstInvalid);
  return { ok: true, encoding: bom ? 'utf-8-bom' : 'utf-8', message: bom ? 'UTF-8 (with a byte-order mark)' : 'UTF-8' };
}

export const hasUtf8Bom = (head: Uint8Array) => head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;

/** UTF-16 (BOM, or NULs in every other byte) and binary files cannot be imported at all. */
function unreadable(head: Uint8Array): EncodingVerdict | null {
  const utf16 = (encoding: 'utf-16le' | 'utf-16be'): EncodingVerdict => ({ ok: false, encoding, message: `the file is ${encoding.toUpperCase()}: ${RESAVE}` });
  if (head[0] === 0xff && head[1] === 0xfe) return utf16('utf-16le');
  if (head[0] === 0xfe && head[1] === 0xff) return utf16('utf-16be');
  const sample = head.subarray(0, 4096);
  let even = 0;
  let odd = 0;
  sample.forEach((byte, i) => {
    if (byte === 0 && i % 2 === 0) even++;
    else if (byte === 0) odd++;
  });
  const half = sample.length / 2;
  if (odd > 0.3 * half && even < 0.05 * half) return utf16('utf-16le');
  if (even > 0.3 * half && odd < 0.05 * half) return utf16('utf-16be');
  if (even + odd > 0) return { ok: false, encoding: 'binary', message: 'the file contains NUL bytes: it looks like a binary file, not text' };
  return null;
}

/** Verdict from the first bytes of a file (`complete`: the head is the whole file). */
export function sniffEncoding(head: Buffer, complete: boolean): EncodingVerdict {
  const refused = unreadable(head);
  if (refused) return refused;
  const check = new Utf8Check();
  check.push(head);
  if (complete) check.end();
  return streamVerdict(check, hasUtf8Bom(head));
}

/** An encoding the importer refuses outright (UTF-16, binary); invalid UTF-8 is handled row by row. */
export const isRefused = (verdict: EncodingVerdict) => verdict.encoding.startsWith('utf-16') || verdict.encoding === 'binary';

/** UTF-8 text chunks from byte chunks (split sequences joined, a leading BOM dropped). */
export async function* decodeUtf8(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of chunks) {
    let text = decoder.write(chunk);
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (text.length > 0) yield text;
  }
  const rest = decoder.end();
  if (rest.length > 0) yield rest;
}
