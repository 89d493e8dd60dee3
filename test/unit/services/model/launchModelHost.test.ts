/**
 * The model host launcher's choice of process, with `electron`, `node:child_process` and
 * the built-worker check mocked: Electron's utilityProcess in Electron's main process when
 * the worker is built (packaged app), child_process.fork everywhere else (CLI, browser
 * mode, tests, and Electron run from source) — and both wrapped into the same HostProcess.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';

class FakeChild extends EventEmitter {
  readonly pid = 777;
  readonly stderr = new EventEmitter();
  readonly send = vi.fn();
  readonly postMessage = vi.fn();
  readonly kill = vi.fn(() => true);
}

const fake = vi.hoisted(() => ({ built: false, forked: [] as unknown[][], utility: [] as unknown[][], child: undefined as unknown }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, existsSync: (path: string) => (String(path).endsWith('modelHost.js') ? fake.built : fs.existsSync(path)) };
});
vi.mock('node:child_process', () => ({
  fork: (...args: unknown[]) => (fake.forked.push(args), fake.child),
}));
vi.mock('electron', () => ({
  utilityProcess: { fork: (...args: unknown[]) => (fake.utility.push(args), fake.child) },
}));

const { defaultHostLauncher, modelHostEntry } = await import('../../../../electron/workers/launchModelHost');

const realVersions = process.versions;
const proc = process as { type?: string };

function runtime(electronMain: boolean, built: boolean): FakeChild {
  fake.built = built;
  fake.forked = [];
  fake.utility = [];
  const child = new FakeChild();
  fake.child = child;
  Object.defineProperty(process, 'versions', { value: electronMain ? { ...realVersions, electron: '45.4.1' } : realVersions, configurable: true });
  if (electronMain) proc.type = 'browser';
  else delete proc.type;
  return child;
}

afterEach(() => {
  Object.defineProperty(process, 'versions', { value: realVersions, configurable: true });
  delete proc.type;
});

describe('model host launcher', () => {
  it('uses utilityProcess.fork in Electron main with the built worker, wrapping its messages, exit and stderr', async () => {
    const child = runtime(true, true);
    const host = await defaultHostLauncher({ VEIL_TEST: '1' })();
    expect(fake.forked).toHaveLength(0);
    expect(fake.utility).toHaveLength(1);
    const [path, args, options] = fake.utility[0] as [string, string[], { serviceName: string; stdio: string; env: NodeJS.ProcessEnv }];
    expect(path).toMatch(/electron[/\\]workers[/\\]modelHost\.js$/);
    expect(args).toEqual([]);
    expect(options).toMatchObject({ serviceName: 'Veil model host', stdio: 'pipe', env: { VEIL_TEST: '1' } });

    expect(host.pid).toBe(777);
    host.send({ id: 1, request: { op: 'hardware' } });
    expect(child.postMessage).toHaveBeenCalledWith({ id: 1, request: { op: 'hardware' } });
    const messages: unknown[] = [];
    const exits: unknown[] = [];
    host.onMessage((m) => messages.push(m));
    host.onExit((code, signal) => exits.push([code, signal]));
    child.emit('message', { type: 'ready', pid: 777 });
    child.stderr.emit('data', Buffer.from('GGML_ASSERT(x) failed\n'));
    child.emit('exit', 134);
    expect(messages).toEqual([{ type: 'ready', pid: 777 }]);
    expect(exits).toEqual([[134, null]]);
    expect(host.stderrTail()).toBe('GGML_ASSERT(x) failed\n');
    host.kill();
    expect(child.kill).toHaveBeenCalledOnce();
  });

  it('uses child_process.fork outside Electron: advanced serialisation, piped stderr, tsx for the TypeScript source', async () => {
    const child = runtime(false, false);
    const host = await defaultHostLauncher({ VEIL_TEST: '2' })();
    expect(fake.utility).toHaveLength(0);
    const [path, args, options] = fake.forked[0] as [string, string[], { execArgv: string[]; serialization: string; stdio: unknown[]; env: NodeJS.ProcessEnv }];
    expect(path).toBe(modelHostEntry().path);
    expect(path).toMatch(/modelHost\.ts$/);
    expect(args).toEqual([]);
    expect(options.execArgv).toEqual(['--import', expect.stringMatching(/^file:.*tsx/)]);
    expect(options).toMatchObject({ serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { VEIL_TEST: '2', PATH: process.env.PATH } });

    host.send({ cancel: 3 });
    expect(child.send).toHaveBeenCalledWith({ cancel: 3 });
    const exits: unknown[] = [];
    host.onExit((code, signal) => exits.push([code, signal]));
    child.emit('exit', null, 'SIGABRT');
    expect(exits).toEqual([[null, 'SIGABRT']]);
    child.stderr.emit('data', 'x'.repeat(20_000));
    child.stderr.emit('data', 'tail');
    expect(host.stderrTail()).toHaveLength(16 * 1024);
    expect(host.stderrTail().endsWith('xtail')).toBe(true);
    host.kill();
    expect(child.kill).toHaveBeenCalledWith('SIGKILL');
  });

  it('forks a built worker without tsx, and falls back to fork in Electron run from source', async () => {
    runtime(false, true);
    await defaultHostLauncher()();
    expect(fake.forked[0][0]).toMatch(/modelHost\.js$/);
    expect((fake.forked[0][2] as { execArgv: string[] }).execArgv).toEqual([]);

    runtime(true, false);
    await defaultHostLauncher()();
    expect(fake.utility).toHaveLength(0);
    expect(fake.forked[0][0]).toMatch(/modelHost\.ts$/);
  });
});
