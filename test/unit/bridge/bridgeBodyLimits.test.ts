/**
 * Bounded bodies in the bridge: a method that takes no large input has a small body limit
 * (413), and bodies received at once share one budget (503 past it), so concurrent large
 * bodies cannot hold the process's memory. Limits are lowered here to keep the test small.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMITS } from '../../../electron/bridge/bodyLimits';
import { startBridge, type Bridge } from '../../../electron/bridge/server';
import { ServiceContext } from '../../../electron/services/context';

interface Reply {
  status: number;
  body: string;
}

/** Starts a POST; `finish(rest)` writes the rest of the body and ends it. */
function post(bridge: Bridge, method: string, first: string): { req: ClientRequest; reply: Promise<Reply> } {
  const headers = { Host: `127.0.0.1:${bridge.port}`, Authorization: `Bearer ${bridge.token}`, 'Content-Type': 'application/json' };
  let req!: ClientRequest;
  const reply = new Promise<Reply>((resolve, reject) => {
    req = request({ host: '127.0.0.1', port: bridge.port, path: `/api/call/${method}`, method: 'POST', headers }, (res) => {
      let data = '';
      res.on('data', (chunk) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
  });
  req.write(first);
  return { req, reply };
}

describe('bridge body limits', () => {
  let dir: string;
  let ctx: ServiceContext;
  let bridge: Bridge;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'veil-bridge-limits-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Veil</title>');
    ctx = new ServiceContext(join(dir, 'data'), 'browser');
    mkdirSync(ctx.dataDir, { recursive: true });
    bridge = await startBridge({ ctx, rendererDir: join(dir, 'renderer'), bodyLimits: { largeBody: 300_000, smallBody: 10_000, inFlight: 400_000 } });
  });
  afterAll(async () => {
    await bridge.close();
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a large body for a method that takes no large input (413), and takes it for one that does', async () => {
    const padding = `{"pad": "${'x'.repeat(50_000)}"}`;
    const small = post(bridge, 'app.info', padding);
    small.req.end();
    expect(await small.reply).toMatchObject({ status: 413, body: expect.stringContaining('request body too large for app.info') });
    const large = post(bridge, 'certificate.verify', JSON.stringify({ document: 'y'.repeat(50_000) }));
    large.req.end();
    expect((await large.reply).status).not.toBe(413);
  });

  it('answers 503 once the bodies being received together pass the shared budget, and takes requests again after', async () => {
    const first = post(bridge, 'certificate.verify', `{"document": "${'a'.repeat(250_000)}`);
    // Once the server holds the first body's bytes, a second body that does not fit beside them is refused.
    let second: Reply | undefined;
    for (let attempt = 0; attempt < 100 && second?.status !== 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const next = post(bridge, 'certificate.verify', `{"document": "${'b'.repeat(250_000)}"}`);
      next.req.end();
      second = await next.reply;
    }
    expect(second).toMatchObject({ status: 503, body: expect.stringContaining('receiving too much at once') });
    first.req.end('"}');
    expect((await first.reply).status).not.toBe(503);
    const again = post(bridge, 'certificate.verify', JSON.stringify({ document: 'c'.repeat(250_000) }));
    again.req.end();
    expect((await again.reply).status).not.toBe(503);
  });

  it('defaults to 1 MiB for small methods, 16 MiB for large ones, 64 MiB in flight', () => {
    expect(DEFAULT_BODY_LIMITS).toEqual({ smallBody: 1 << 20, largeBody: 16 << 20, inFlight: 64 << 20 });
  });
});
