/**
 * GGUF files on disk: validation of paths that come from the UI or CLI (absolute,
 * existing, a regular file, named *.gguf), header validation and metadata through
 * core/model/gguf, and the file's SHA-256 (streamed, with progress and cancellation).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { readGgufHeader, type ByteSource } from '../../../core/model/gguf/ggufReader';
import { summariseGguf, type GgufModelMetadata } from '../../../core/model/gguf/ggufSummary';
import { readableFile } from '../files/readableFile';

export class ModelPathError extends Error {
  override readonly name = 'ModelPathError';
}

/** Check a model path; returns the real path of the readable regular file. */
export async function validateGgufPath(path: string): Promise<string> {
  if (extname(path).toLowerCase() !== '.gguf') throw new ModelPathError(`not a .gguf file: ${basename(path)}`);
  return (await readableFile(path, (message) => new ModelPathError(message))).path;
}

/** Read-only random access to a file, for the GGUF reader. */
async function withFileSource<T>(path: string, use: (source: ByteSource) => Promise<T>): Promise<T> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return await use({
      size,
      read: async (offset, length) => {
        const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await handle.close();
  }
}

/** Validate the GGUF header and summarise its metadata (throws GgufFormatError). */
export async function readGgufMetadata(path: string): Promise<GgufModelMetadata> {
  return withFileSource(path, async (source) => summariseGguf(await readGgufHeader(source)));
}

export async function sha256File(path: string, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<string> {
  const { size } = await stat(path);
  const hash = createHash('sha256');
  let done = 0;
  let reported = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22, signal })) {
    hash.update(chunk as Buffer);
    done += (chunk as Buffer).length;
    if (onProgress && (done - reported > 64 << 20 || done === size)) {
      reported = done;
      onProgress(done, size);
    }
  }
  return hash.digest('hex');
}

export interface GgufInspection {
  path: string;
  fileName: string;
  sha256: string;
  metadata: GgufModelMetadata;
}

/** Everything `veil model info` and model.inspect show about a file. */
export async function inspectGgufFile(path: string): Promise<GgufInspection> {
  const real = await validateGgufPath(path);
  const metadata = await readGgufMetadata(real);
  return { path: real, fileName: basename(real), sha256: await sha256File(real), metadata };
}
