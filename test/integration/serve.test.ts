/**
 * `veil serve` as a real process: it prints its launch URL (human text or `--json`), the
 * API refuses a call without the token and answers one with it, and SIGTERM or SIGINT
 * stops it with exit code 0 and the port closed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { portIsClosed, watchServer } from './serverProcess';

const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts `veil serve` and resolves with the launch URL it prints (parsed by `parse` from stdout). */
function startServe(extra: readonly string[], parse: (stdout: string) => string | undefined, env: NodeJS.ProcessEnv = process.env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'veil-serve-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['bin/veil.mjs', 'serve', '--port', '0', '--data-dir', dataDir, ...extra], { env });
  children.push(child);
  const { exited, launchUrl } = watchServer(child, parse, 'veil serve');
  return { child, exited, launchUrl };
}

const humanUrl = (stdout: string) => /^Open: (\S+)$/m.exec(stdout)?.[1];
const jsonUrl = (stdout: string) => {
  const line = /^(\{.*\})\n/m.exec(stdout)?.[1];
  if (!line) return undefined;
  expect(stdout.startsWith(line)).toBe(true); // nothing but the one JSON document
  const printed = JSON.parse(line) as { url: string; port: number; launchUrl: string };
  expect(printed.launchUrl.startsWith(printed.url)).toBe(true);
  expect(new URL(printed.url).port).toBe(String(printed.port));
  return printed.launchUrl;
};

describe('veil serve', () => {
  it.each([
    ['SIGTERM', 'the human summary', [], humanUrl],
    ['SIGINT', '--json', ['--json'], jsonUrl],
  ] as const)('stops cleanly on %s (URL from %s)', async (signal, _how, extra, parse) => {
    const server = startServe(extra, parse);
    const launch = new URL(await server.launchUrl);
    expect(launch.hostname).toBe('127.0.0.1');
    const token = /^#token=([\w-]+)$/.exec(launch.hash)?.[1];
    expect(token).toMatch(/^[\w-]{43}$/); // 32 random bytes, base64url
    const call = new URL('/api/call/app.info', launch);
    const post = (headers: Record<string, string>) => fetch(call, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

    expect((await post({})).status).toBe(401);
    const answered = await post({ authorization: `Bearer ${token}` });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { result: { mode: string } }).result.mode).toBe('browser');

    server.child.kill(signal);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await portIsClosed(Number(launch.port))).toBe(true);
  });

  it.runIf(process.platform === 'linux')('--open gives the browser a private launch page, not the token: nothing in its command line for other users to read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'veil-open-'));
    dirs.push(root);
    const marker = join(root, 'argv');
    writeFileSync(join(root, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${marker}'\n`, { mode: 0o755 });
    const env = { ...process.env, PATH: [root, process.env.PATH ?? ''].join(delimiter), DISPLAY: ':99' };
    const server = startServe(['--open'], humanUrl, env);
    const launchUrl = await server.launchUrl;
    await expect.poll(() => existsSync(marker) && readFileSync(marker, 'utf8')).toMatch(/^file:\/\//);
    const opened = readFileSync(marker, 'utf8');
    const token = new URL(launchUrl).hash.slice('#token='.length);
    expect(opened).not.toContain(token);
    const page = fileURLToPath(opened);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(page)).mode & 0o777).toBe(0o700);
    expect(readFileSync(page, 'utf8')).toContain(`<meta http-equiv="refresh" content="0; url=${launchUrl}">`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(page)).toBe(false);
  });
});
