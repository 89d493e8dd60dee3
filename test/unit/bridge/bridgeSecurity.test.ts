/** The loopback bridge's security: token, Host/Origin pinning, loopback-only, no CORS. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridge, type Bridge } from '../../../electron/bridge/server';
import { ServiceContext } from '../../../electron/services/context';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, path: string, headers: Record<string, string>, method = 'POST', body = '{}'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let data = '';
      res.on('data', (chunk) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? body : undefined);
  });
}

describe('loopback bridge security', () => {
  let dir: string;
  let ctx: ServiceContext;
  let bridge: Bridge;
  let own: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'veil-bridge-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Veil</title>');
    writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
    ctx = new ServiceContext(join(dir, 'data'), 'browser');
    mkdirSync(ctx.dataDir, { recursive: true });
    bridge = await startBridge({ ctx, rendererDir });
    own = { Host: `127.0.0.1:${bridge.port}`, Authorization: `Bearer ${bridge.token}`, 'Content-Type': 'application/json' };
  });
  afterAll(async () => {
    await bridge.close();
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a call that carries the token', async () => {
    const reply = await send(bridge.port, '/api/call/app.info', own);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).result.mode).toBe('browser');
  });

  it('refuses a call without the token (401)', async () => {
    const { Authorization: _, ...noToken } = own;
    expect((await send(bridge.port, '/api/call/app.info', noToken)).status).toBe(401);
  });

  it('refuses a wrong token, including one of the right length (401)', async () => {
    const wrong = bridge.token.slice(0, -1) + (bridge.token.endsWith('A') ? 'B' : 'A');
    expect((await send(bridge.port, '/api/call/app.info', { ...own, Authorization: `Bearer ${wrong}` })).status).toBe(401);
    expect((await send(bridge.port, '/api/call/app.info', { ...own, Authorization: bridge.token })).status).toBe(401);
  });

  it('refuses the event stream without the token', async () => {
    const { Authorization: _, ...noToken } = own;
    expect((await send(bridge.port, '/api/events', noToken, 'GET')).status).toBe(401);
  });

  it('refuses a foreign Host even with the token (DNS rebinding)', async () => {
    const reply = await send(bridge.port, '/api/call/app.info', { ...own, Host: `attacker.example:${bridge.port}` });
    expect(reply.status).toBe(403);
    expect((await send(bridge.port, '/', { Host: 'attacker.example' }, 'GET')).status).toBe(403);
  });

  it('refuses a foreign Origin even with the token', async () => {
    const reply = await send(bridge.port, '/api/call/app.info', { ...own, Origin: 'http://attacker.example' });
    expect(reply.status).toBe(403);
    expect((await send(bridge.port, '/api/call/app.info', { ...own, Origin: `http://127.0.0.1:${bridge.port + 1}` })).status).toBe(403);
  });

  it('accepts its own Origin and sends no CORS headers', async () => {
    const reply = await send(bridge.port, '/api/call/app.info', { ...own, Origin: `http://127.0.0.1:${bridge.port}` });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('listens on the loopback address only', () => {
    const address = bridge.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
  });

  it('validates input against the contract (400) and rejects unknown methods (404)', async () => {
    const bad = await send(bridge.port, '/api/call/jobs.get', own, 'POST', '{"id": 42}');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/invalid input for jobs.get/);
    expect((await send(bridge.port, '/api/call/constructor', own)).status).toBe(404);
    expect((await send(bridge.port, '/api/call/app.info', own, 'POST', 'not json')).status).toBe(400);
  });

  it('answers a refusal by the service with 422 and its message', async () => {
    const missing = await send(bridge.port, '/api/call/vault.stats', own, 'POST', '{"dataset": "no such dataset"}');
    expect(missing.status).toBe(422);
    expect(JSON.parse(missing.body).error).toBe('no dataset named "no such dataset"');
    const relative = await send(bridge.port, '/api/call/model.loadGguf', own, 'POST', '{"path": "model.gguf"}');
    expect(relative.status).toBe(422);
    const noJob = await send(bridge.port, '/api/call/jobs.get', own, 'POST', '{"id": "no-such-job"}');
    expect({ status: noJob.status, error: JSON.parse(noJob.body).error }).toEqual({ status: 422, error: 'no job with id no-such-job' });
  });

  it('serves the renderer with the CSP and nothing outside its directory', async () => {
    const page = await send(bridge.port, '/', { Host: own.Host }, 'GET');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const escape = await send(bridge.port, '/..%2fsecret.txt', { Host: own.Host }, 'GET');
    expect(escape.status).toBe(404);
    expect(escape.body).not.toContain('outside the renderer');
  });

  it.each(['//', '/%E0%A4%A', '/%', '//api/call/app.info'])('answers a malformed request target (%s) and keeps serving', async (target) => {
    const reply = await send(bridge.port, target, { Host: own.Host }, 'GET');
    expect([400, 404]).toContain(reply.status);
    expect(reply.body).not.toContain('outside the renderer');
    const after = await send(bridge.port, '/api/call/app.info', own);
    expect(after.status).toBe(200);
  });
});
