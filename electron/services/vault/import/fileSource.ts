/**
 * Reading an import file: its head (for sniffing), and its bytes as a stream of chunks with
 * a tap for progress, cancellation and the UTF-8 check. Picks the format reader.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Delimiter, ImportFormat } from '../../../shared/api/vaultFiles';
import { csvReader } from './csvReader';
import type { FormatReader } from './importTypes';
import { jsonArrayReader } from './jsonArrayReader';
import { jsonlReader, txtReader } from './lineReaders';

export const HEAD_BYTES = 1 << 20;
/** Bytes read at a time: a format reader parses each chunk in one synchronous stretch (1 MiB took ~20 ms, holding up SQLite's next step: importWriter.ts). */
const CHUNK_BYTES = 1 << 16;

/** The first `bytes` bytes of a file (fewer if it is shorter). */
export async function readHead(path: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The file's bytes in chunks; `tap` sees each chunk before it is passed on (and may throw to stop). */
export async function* readChunks(path: string, tap: (chunk: Buffer) => void = () => undefined): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    tap(chunk as Buffer);
    yield chunk as Buffer;
  }
}

export function formatReader(format: ImportFormat, delimiter: Delimiter | null): FormatReader {
  switch (format) {
    case 'csv':
      return csvReader(delimiter ?? ',');
    case 'jsonl':
      return jsonlReader;
    case 'json':
      return jsonArrayReader;
    case 'txt':
      return txtReader;
  }
}
