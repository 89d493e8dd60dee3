/**
 * The loopback bridge (browser mode): serves the built renderer and the service API on
 * 127.0.0.1 only. Every API call needs the per-launch token (Authorization: Bearer);
 * Host and Origin must be the bridge's own; no CORS headers.
 *
 *   POST /api/call/<method>   JSON input → JSON output (400 invalid input, 401 token, 422 refused
 *                             by the service — services/refusals.ts — 500 failure)
 *   GET  /api/events          server-sent events: job progress and results
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BadRequestError, callMethod, isMethodName } from '../services/api';
import type { ServiceContext } from '../services/context';
import { isRefusal } from '../services/refusals';
import { BodyLimitError, BodyReader, DEFAULT_BODY_LIMITS, type BodyLimits } from './bodyLimits';
import { CONTENT_SECURITY_POLICY } from './csp';
import { checkHostAndOrigin, newToken, tokenMatches } from './security';
import { resolveStatic, sendFile } from './staticFiles';

export interface BridgeOptions {
  ctx: ServiceContext;
  /** Directory holding the built renderer (index.html). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** Request body limits (tests lower them). */
  bodyLimits?: BodyLimits;
}

export interface Bridge {
  url: string;
  port: number;
  token: string;
  /** URL that carries the token in its fragment (never sent to the server in requests). */
  launchUrl: string;
  server: Server;
  close(): Promise<void>;
}

const BASE_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

function parseBody(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('request body is not JSON');
  }
}

function streamEvents(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
  res.write(': connected\n\n');
  const unsubscribe = ctx.subscribe((event, payload) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  });
  const keepAlive = setInterval(() => res.write(': ping\n\n'), 15_000);
  req.on('close', () => {
    clearInterval(keepAlive);
    unsubscribe();
  });
}

/** The request's path, or null when its target does not parse as a URL path (`//`, `http://`). */
function requestPath(url: string | undefined): string | null {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}

async function handleApi(ctx: ServiceContext, bodies: BodyReader, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (path === '/api/events' && req.method === 'GET') return streamEvents(ctx, req, res);
  const name = path.startsWith('/api/call/') ? path.slice('/api/call/'.length) : '';
  if (req.method !== 'POST' || !isMethodName(name)) return sendJson(res, 404, { error: 'no such API method' });
  try {
    const result = await callMethod(ctx, name, parseBody(await bodies.read(req, name)));
    sendJson(res, 200, { result });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof BodyLimitError) {
      res.setHeader('Connection', 'close'); // the rest of the body is not read
      return sendJson(res, error.status, { error: message });
    }
    sendJson(res, error instanceof BadRequestError ? 400 : isRefusal(error) ? 422 : 500, { error: message });
  }
}

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const token = options.token ?? newToken();
  const bodies = new BodyReader(options.bodyLimits ?? DEFAULT_BODY_LIMITS);
  let port = 0;
  const sockets = new Set<import('node:net').Socket>();
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const verdict = checkHostAndOrigin(req, port);
    if (!verdict.ok) return sendJson(res, verdict.status, { error: verdict.reason });
    const path = requestPath(req.url);
    if (path === null) return sendJson(res, 400, { error: 'malformed request URL' });
    if (path.startsWith('/api/')) {
      if (!tokenMatches(token, req.headers.authorization)) return sendJson(res, 401, { error: 'missing or wrong token' });
      void handleApi(options.ctx, bodies, req, res, path);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'method not allowed' });
    const file = resolveStatic(options.rendererDir, path);
    if (!file) return sendJson(res, 404, { error: 'not found' });
    sendFile(res, file, { ...BASE_HEADERS, 'Cache-Control': 'no-cache' });
  };
  // A request the router cannot take is answered 400; it never takes the server down.
  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch {
      if (!res.headersSent) sendJson(res, 400, { error: 'malformed request' });
      else res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    port,
    token,
    launchUrl: `${url}#token=${token}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
