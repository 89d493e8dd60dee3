/**
 * The per-user data directory: Electron's userData in the desktop app, otherwise
 * --data-dir / VEIL_DATA_DIR / ~/.local/share/veil. Created owner-only (0700).
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VEIL_DATA_DIR) return resolve(env.VEIL_DATA_DIR);
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'veil');
}

/** Create (if needed) and lock down the data directory; returns its absolute path. */
export function ensureDataDir(dir: string): string {
  const absolute = resolve(dir);
  mkdirSync(absolute, { recursive: true, mode: 0o700 });
  if (!statSync(absolute).isDirectory()) throw new Error(`data directory ${absolute} is not a directory`);
  chmodSync(absolute, 0o700);
  return absolute;
}
