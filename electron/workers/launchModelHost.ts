/**
 * Starts the model host process. Inside Electron's main process with a built worker
 * (modelHost.js next to the main bundle) it uses utilityProcess.fork; everywhere else
 * child_process.fork — from source through tsx (`--import <tsx loader>`), with
 * structured-clone serialisation so typed arrays cross without JSON. stderr is kept as
 * a short tail for crash reports (llama.cpp prints its GGML assertion there).
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HostMessage, ParentMessage } from './modelHostProtocol';

export interface HostProcess {
  readonly pid: number | undefined;
  send(message: ParentMessage): void;
  onMessage(listener: (message: HostMessage) => void): void;
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** The last few KiB the process wrote to stderr. */
  stderrTail(): string;
  kill(): void;
}

export type HostLauncher = () => Promise<HostProcess>;

const TAIL = 16 * 1024;
const here = dirname(fileURLToPath(import.meta.url));

function tailCollector(): { push(chunk: Buffer | string): void; read(): string } {
  let text = '';
  return {
    push(chunk) {
      text = (text + chunk.toString()).slice(-TAIL);
    },
    read: () => text,
  };
}

/** The worker entry: a built modelHost.js beside this module, else the TypeScript source. */
export function modelHostEntry(): { path: string; needsTsx: boolean } {
  const built = join(here, 'modelHost.js');
  if (existsSync(built)) return { path: built, needsTsx: false };
  return { path: join(here, 'modelHost.ts'), needsTsx: true };
}

function forkLauncher(env: NodeJS.ProcessEnv): HostProcess {
  const entry = modelHostEntry();
  const execArgv = entry.needsTsx ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  const child = fork(entry.path, [], {
    execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env,
  });
  const tail = tailCollector();
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
  return {
    pid: child.pid,
    send: (m) => void child.send(m),
    onMessage: (listener) => child.on('message', (m) => listener(m as HostMessage)),
    onExit: (listener) => child.on('exit', (code, signal) => listener(code, signal)),
    stderrTail: tail.read,
    kill: () => void child.kill('SIGKILL'),
  };
}

interface ElectronUtilityChild {
  pid?: number;
  stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): void;
  on(event: 'exit', listener: (code: number) => void): void;
  kill(): boolean;
}

async function utilityLauncher(path: string, env: NodeJS.ProcessEnv): Promise<HostProcess> {
  const electron = (await import('electron')) as unknown as {
    utilityProcess: { fork(path: string, args: string[], options: object): ElectronUtilityChild };
  };
  const child = electron.utilityProcess.fork(path, [], { serviceName: 'Veil model host', stdio: 'pipe', env });
  const tail = tailCollector();
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
  return {
    pid: child.pid,
    send: (m) => child.postMessage(m),
    onMessage: (listener) => child.on('message', (m) => listener(m as HostMessage)),
    onExit: (listener) => child.on('exit', (code) => listener(code, null)),
    stderrTail: tail.read,
    kill: () => void child.kill(),
  };
}

/** The default launcher for this runtime. */
export function defaultHostLauncher(extraEnv: NodeJS.ProcessEnv = {}): HostLauncher {
  return async () => {
    const env = { ...process.env, ...extraEnv };
    const entry = modelHostEntry();
    const inElectronMain = Boolean(process.versions.electron) && (process as { type?: string }).type === 'browser';
    if (inElectronMain && !entry.needsTsx) return utilityLauncher(entry.path, env);
    return forkLauncher(env);
  };
}
