/**
 * Paths from the UI or the CLI that Veil will read (an import, a GGUF): absolute, existing,
 * a readable regular file — never a directory, device, FIFO or socket. Each caller raises
 * its own error type (`fail`), so its handlers keep reporting it as a bad request.
 */
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';

/** The real path and size of a readable regular file. */
export async function readableFile(path: string, fail: (message: string) => Error): Promise<{ path: string; size: number }> {
  if (!isAbsolute(path)) throw fail(`the path must be absolute: ${path}`);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw fail(`no such file: ${path}`);
  }
  const info = await stat(real);
  if (info.isDirectory()) throw fail(`${path} is a directory, not a file`);
  if (!info.isFile()) throw fail(`${path} is not a regular file (a device, pipe or socket?)`);
  try {
    await access(real, constants.R_OK);
  } catch {
    throw fail(`${path} is not readable`);
  }
  return { path: real, size: info.size };
}
