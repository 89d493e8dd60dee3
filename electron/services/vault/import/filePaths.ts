/**
 * Paths that come from the UI or the CLI. An import reads an absolute path to an existing
 * regular file (no directories, devices, FIFOs or sockets). An export writes an absolute
 * path in an existing directory, never over a directory, a link or a special file, and over
 * an existing file only when asked; it writes owner-only to a temporary file in the same
 * directory, flushes it and renames it into place, so a failed export leaves nothing half-written.
 * An export's file name must end in its format's extension and no part of its path may be
 * hidden: whoever holds the API (a compromised renderer included) cannot replace a shell
 * profile, an autostart entry or another program's configuration with exported text.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { readableFile } from '../../files/readableFile';
import { VaultError } from '../datasets';

export class FilePathError extends VaultError {}

function requireAbsolute(path: string): void {
  if (!isAbsolute(path)) throw new FilePathError(`the path must be absolute: ${path}`);
}

/** The real path and size of a readable regular file. */
export const validateImportPath = (path: string) => readableFile(path, (message) => new FilePathError(message));

async function checkExportTarget(path: string, overwrite: boolean, extension: string): Promise<string> {
  requireAbsolute(path);
  if (!path.toLowerCase().endsWith(extension)) throw new FilePathError(`the file name must end in ${extension}: ${path}`);
  const hidden = path.split(sep).find((part) => part.startsWith('.'));
  if (hidden) throw new FilePathError(`Veil does not write into hidden files or folders (${hidden}): choose a visible location`);
  const dir = dirname(path);
  const dirInfo = await stat(dir).catch(() => null);
  if (!dirInfo?.isDirectory()) throw new FilePathError(`no such directory: ${dir}`);
  const target = join(await realpath(dir), basename(path));
  const existing = await lstat(target).catch(() => null);
  if (existing?.isSymbolicLink()) throw new FilePathError(`${path} is a symbolic link; choose the file it points to or another name`);
  if (existing && !existing.isFile()) throw new FilePathError(`${path} exists and is not a regular file`);
  if (existing && !overwrite) throw new FilePathError(`${path} exists; choose another name or overwrite it`);
  return target;
}

/** Writes a file through `fill` (which appends with the handle) atomically; returns its real path and size. */
export async function writeFileAtomically(
  path: string,
  options: { overwrite: boolean; extension: string },
  fill: (handle: FileHandle) => Promise<void>,
): Promise<{ path: string; bytes: number }> {
  const target = await checkExportTarget(path, options.overwrite, options.extension);
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await fill(handle);
    await handle.sync();
    const { size } = await handle.stat();
    await handle.close();
    await rename(temporary, target);
    return { path: target, bytes: size };
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
