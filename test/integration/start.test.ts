/**
 * `npm start` (`node scripts/start.mjs`) as a real process on a machine without the Electron
 * runtime or a display: it falls back to browser mode, builds the renderer, prints the launch
 * URL with its token, serves the page with the Content-Security-Policy, answers `app.info`
 * on the data directory named by VEIL_DATA_DIR, opens no browser, and stops cleanly on SIGTERM
 * and on Ctrl+C.
 *
 * The script runs from a copy of the checkout (sources, with node_modules linked) so that its
 * `--rebuild` writes that copy's out/renderer, not the one the end-to-end tests are serving
 * from at the same time (the renderer build empties its output folder first). A copy without
 * out/ is also what a fresh checkout looks like.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../electron/bridge/csp';
import { portIsClosed, watchServer } from './serverProcess';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** What `npm start` needs from the checkout: the script, the CLI and the sources it runs and builds. */
const COPIED = ['package.json', 'tsconfig.json', 'scripts', 'bin', 'electron', 'core', 'renderer', 'resources'];
const URL_TIMEOUT_MS = 90_000;

const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    // The script runs `veil serve` as its own child: kill the whole process group.
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function checkoutCopy(root: string): string {
  const copy = join(root, 'checkout');
  mkdirSync(copy);
  for (const entry of COPIED) cpSync(join(repo, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** A PATH whose browser launchers only leave a mark, so no real browser can open. */
function fakeBrowserPath(root: string, marker: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  for (const name of ['xdg-open', 'open', 'sensible-browser', 'x-www-browser']) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "$0 $*" >> '${marker}'\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return [bin, process.env.PATH ?? ''].join(delimiter);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function npmStart() {
  const root = mkdtempSync(join(tmpdir(), 'veil-start-'));
  dirs.push(root);
  const checkout = checkoutCopy(root);
  const dataDir = join(root, 'data');
  const browserMarker = join(root, 'browser-opened');
  const env: NodeJS.ProcessEnv = { ...process.env, VEIL_DATA_DIR: dataDir, PATH: fakeBrowserPath(root, browserMarker) };
  // Headless: no display, so the script picks browser mode and `--open` finds no browser to open.
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  delete env.VEIL_BROWSER_MODE;
  // Elsewhere than Linux a missing display does not rule out the desktop app: ask for browser mode.
  if (process.platform !== 'linux') env.VEIL_BROWSER_MODE = '1';
  // `--port 0` is passed through to `veil serve`, as `npm start -- --port 0` would.
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', '0'], { cwd: checkout, env, detached: true });
  children.push(child);
  const { exited, launchUrl, stdout } = watchServer(child, (out) => /^Open: (\S+)$/m.exec(out)?.[1], 'npm start');
  return { child, exited, dataDir, browserMarker, stdout, launchUrl: withTimeout(launchUrl, URL_TIMEOUT_MS, 'npm start') };
}

describe('npm start without the Electron runtime', () => {
  it('starts browser mode on VEIL_DATA_DIR, serves the app and the API, and stops cleanly on SIGTERM', { timeout: 180_000 }, async () => {
    const app = npmStart();
    const launch = new URL(await app.launchUrl);
    expect(app.stdout()).toMatch(/^.+: starting Veil in browser mode\.$/m);
    expect(app.stdout()).toContain(`Veil is running in browser mode (data: ${resolve(app.dataDir)}).`);
    expect(launch.hostname).toBe('127.0.0.1');
    const token = /^#token=([\w-]+)$/.exec(launch.hash)?.[1];
    expect(token).toMatch(/^[\w-]{43}$/);

    const page = await fetch(new URL('/', launch));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await page.text()).toMatch(/<script[^>]+src="\.\/assets\/[^"]+\.js"/); // the freshly built renderer

    const call = (headers: Record<string, string>) =>
      fetch(new URL('/api/call/app.info', launch), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    expect((await call({})).status).toBe(401);
    const answered = await call({ authorization: `Bearer ${token}` });
    expect(answered.status).toBe(200);
    const { result } = (await answered.json()) as { result: { dataDir: string; mode: string; name: string } };
    expect(result).toMatchObject({ name: 'Veil', mode: 'browser', dataDir: resolve(app.dataDir) });
    expect(statSync(app.dataDir).mode & 0o777).toBe(0o700);

    app.child.kill('SIGTERM'); // the script passes it on to `veil serve`
    expect(await withTimeout(app.exited, 30_000, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(await portIsClosed(Number(launch.port))).toBe(true);
    expect(existsSync(app.browserMarker)).toBe(false); // headless: no browser was launched
  });

  it('stops cleanly on Ctrl+C, which the terminal sends to the whole process group', { timeout: 180_000 }, async () => {
    const app = npmStart();
    const launch = new URL(await app.launchUrl);
    process.kill(-app.child.pid!, 'SIGINT'); // `veil serve` gets it twice: from the terminal and forwarded
    expect(await withTimeout(app.exited, 30_000, 'SIGINT')).toEqual({ code: 0, signal: null });
    expect(await portIsClosed(Number(launch.port))).toBe(true);
  });
});
