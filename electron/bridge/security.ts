/**
 * Request checks for the loopback bridge: the per-launch token (constant-time compare),
 * and Host/Origin pinned to the bridge's own address (defeats DNS rebinding and
 * cross-site requests). No CORS headers are ever sent.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenMatches(expected: string, header: string | undefined): boolean {
  const presented = header?.startsWith('Bearer ') ? header.slice(7) : '';
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Host values a legitimate browser sends to us: 127.0.0.1:PORT and localhost:PORT. */
function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export type RequestVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** Host must be ours; Origin, when present, must be ours too. */
export function checkHostAndOrigin(req: IncomingMessage, port: number): RequestVerdict {
  const hosts = allowedHosts(port);
  const host = req.headers.host ?? '';
  if (!hosts.has(host)) return { ok: false, status: 403, reason: 'foreign Host header' };
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.has(origin.replace(/^http:\/\//, '')))
    return { ok: false, status: 403, reason: 'foreign Origin header' };
  return { ok: true };
}
