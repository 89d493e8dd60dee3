/** Serves the built renderer (index.html + assets) from one directory, nothing outside it. */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Resolve a URL path inside `root`; SPA routes fall back to index.html; null if absent or not decodable. */
export function resolveStatic(root: string, urlPath: string): string | null {
  const decoded = decodePath(urlPath.split('?')[0]);
  if (decoded === null) return null;
  const candidate = normalize(join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  const index = join(root, 'index.html');
  return extname(decoded) === '' && existsSync(index) ? index : null;
}

function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

export function sendFile(res: ServerResponse, file: string, headers: Record<string, string>): void {
  res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
}
