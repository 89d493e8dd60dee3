/**
 * The per-user data directory: Electron's userData in the desktop app, otherwise
 * --data-dir / VEIL_DATA_DIR / ~/.local/share/veil. Created owner-only (0700); an existing
 * directory keeps its permissions (Veil's own files in it are owner-only), but one that
 * belongs to another user, or that every user may write into (/tmp), is refused.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VEIL_DATA_DIR) return resolve(env.VEIL_DATA_DIR);
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'veil');
}

/** Create (if needed, owner-only) and check the data directory; returns its absolute path. */
export function ensureDataDir(dir: string): string {
  const absolute = resolve(dir);
  const created = mkdirSync(absolute, { recursive: true, mode: 0o700 }) !== undefined;
  const info = statSync(absolute);
  if (!info.isDirectory()) throw new Error(`data directory ${absolute} is not a directory`);
  if (created) chmodSync(absolute, 0o700); // the umask may have narrowed mkdir's mode, never widened it: this is exact
  else if (process.getuid && info.uid !== process.getuid()) throw new Error(`data directory ${absolute} belongs to another user: choose a directory of your own`);
  else if (info.mode & 0o002) throw new Error(`data directory ${absolute} is writable by every user (mode ${(info.mode & 0o7777).toString(8)}): choose a private directory`);
  return absolute;
}
