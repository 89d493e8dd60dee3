/**
 * The app side of the model host process: starts it, sends requests and matches replies,
 * forwards load progress and cancellation, and survives it dying. When the host exits
 * unexpectedly (a GGML assertion aborts it on a bad model) every pending request fails
 * with ModelHostCrashedError carrying a clear explanation, the crash is recorded, and a
 * fresh host is started (at most MAX_RESTARTS within a minute, then on next use).
 */
import { defaultHostLauncher, type HostLauncher, type HostProcess } from '../../workers/launchModelHost';
import type { HostMessage, HostRequest } from '../../workers/modelHostProtocol';

export class ModelHostCrashedError extends Error {
  override readonly name = 'ModelHostCrashedError';
}

export interface HostStatus {
  running: boolean;
  pid: number | null;
  restarts: number;
  lastCrash: { at: string; message: string } | null;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?(progress: number): void;
}

const START_TIMEOUT_MS = 60_000;
const MAX_RESTARTS = 3;

/** Only llama.cpp's own diagnostic lines (assertions, errors) go into crash messages. */
function diagnostic(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => /GGML_ASSERT|GGML_ABORT|error|failed|terminate/i.test(l));
  return lines.slice(-3).join(' | ').slice(0, 600);
}

export function describeExit(code: number | null, signal: string | null, stderr: string): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const aborted = signal === 'SIGABRT' || code === 134 || /GGML_ASSERT|GGML_ABORT/.test(stderr);
  const cause = aborted ? ' — llama.cpp aborted, most likely on a malformed or unsupported model file' : '';
  const detail = diagnostic(stderr);
  return `the model host process ${how}${cause}${detail ? ` (${detail})` : ''}`;
}

export class ModelHostClient {
  private proc?: HostProcess;
  private starting?: Promise<HostProcess>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped = false;
  private restarts = 0;
  private readonly crashTimes: number[] = [];
  private lastCrash: HostStatus['lastCrash'] = null;
  /** Called after the host died unexpectedly (the loaded model is gone). */
  onCrash?: (message: string) => void;

  constructor(private readonly launch: HostLauncher = defaultHostLauncher()) {}

  status(): HostStatus {
    return { running: Boolean(this.proc), pid: this.proc?.pid ?? null, restarts: this.restarts, lastCrash: this.lastCrash };
  }

  /** Start the host (if needed) and wait until it is ready. */
  async start(): Promise<void> {
    await this.ensure();
  }

  private ensure(): Promise<HostProcess> {
    if (this.proc) return Promise.resolve(this.proc);
    this.stopped = false;
    this.starting ??= this.spawn().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async spawn(): Promise<HostProcess> {
    const proc = await this.launch();
    return new Promise<HostProcess>((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        proc.kill();
        reject(new Error('the model host did not start within 60 s'));
      }, START_TIMEOUT_MS);
      proc.onMessage((message) => {
        if (message.type === 'ready') {
          ready = true;
          clearTimeout(timer);
          this.proc = proc;
          resolve(proc);
        } else this.receive(message);
      });
      proc.onExit((code, signal) => {
        clearTimeout(timer);
        if (!ready) reject(new Error(`the model host failed to start: ${describeExit(code, signal, proc.stderrTail())}`));
        else this.exited(proc, code, signal);
      });
    });
  }

  private receive(message: HostMessage): void {
    if (message.type === 'ready') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === 'progress') return pending.onProgress?.(message.progress);
    this.pending.delete(message.id);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(message.error));
  }

  private exited(proc: HostProcess, code: number | null, signal: string | null): void {
    if (this.proc !== proc) return;
    this.proc = undefined;
    const failures = [...this.pending.values()];
    this.pending.clear();
    if (this.stopped) {
      for (const p of failures) p.reject(new Error('the model host was stopped'));
      return;
    }
    const now = Date.now();
    this.crashTimes.push(now);
    while (this.crashTimes.length && this.crashTimes[0] < now - 60_000) this.crashTimes.shift();
    const restart = this.crashTimes.length <= MAX_RESTARTS;
    const message = `${describeExit(code, signal, proc.stderrTail())}; the app is unaffected and ${restart ? 'a fresh model host was started' : 'the model host restarts on next use'}`;
    this.lastCrash = { at: new Date().toISOString(), message };
    for (const p of failures) p.reject(new ModelHostCrashedError(message));
    this.onCrash?.(message);
    if (restart) {
      this.restarts++;
      this.ensure().catch(() => undefined);
    }
  }

  /** Send one request; resolves with the host's result or rejects with its error. */
  async request<T>(request: HostRequest, options: { signal?: AbortSignal; onProgress?: (p: number) => void } = {}): Promise<T> {
    options.signal?.throwIfAborted();
    const proc = await this.ensure();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        proc.send({ cancel: id });
        if (request.op !== 'generate') {
          this.pending.delete(id);
          reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('cancelled'));
        }
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => options.signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v as T);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        onProgress: options.onProgress,
      });
      proc.send({ id, request });
    });
  }

  /** Kill the host process (pending requests fail); a later request starts a new one. */
  async stop(): Promise<void> {
    this.stopped = true;
    const starting = this.starting;
    const proc = this.proc ?? (starting ? await starting.catch(() => undefined) : undefined);
    if (!proc) return;
    await new Promise<void>((resolve) => {
      proc.onExit(() => resolve());
      proc.kill();
      setTimeout(resolve, 5_000).unref();
    });
    if (this.proc === proc) this.proc = undefined;
  }
}
