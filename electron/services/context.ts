/**
 * ServiceContext: what every handler gets — the data directory, the job manager, the
 * event emitter, and per-context singletons (vault, model host, …) created on first use
 * and closed with the context. Domains keep their singleton with `ctx.singleton(key, make)`.
 */
import type { EventName, EventPayload } from '../shared/contract';
import { appDatabase } from './db/appDatabase';
import { JobManager } from './jobs/jobManager';

export type AppMode = 'electron' | 'browser' | 'cli';
type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
type Listener = (event: EventName, payload: unknown) => void;

export class ServiceContext {
  readonly jobs: JobManager;
  /** The promise is stored before it settles, so concurrent first calls share one `make()`. */
  private readonly singletons = new Map<string, { value: Promise<unknown>; close?: () => Promise<void> }>();
  private readonly listeners = new Set<Listener>();

  constructor(readonly dataDir: string, readonly mode: AppMode) {
    this.jobs = new JobManager(dataDir, this.emit, () => appDatabase(this));
  }

  /** Push an event to every subscriber (IPC, bridge SSE, tests). */
  readonly emit: Emit = (event, payload) => {
    for (const listener of this.listeners) listener(event, payload);
  };

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A per-context singleton, created on first use; `close` runs when the context closes. */
  singleton<T>(key: string, make: () => Promise<T> | T, close?: (value: T) => Promise<void> | void): Promise<T> {
    const existing = this.singletons.get(key);
    if (existing) return existing.value as Promise<T>;
    const value = Promise.resolve().then(make);
    // A failed make() is forgotten, so the next call tries again.
    value.catch(() => this.singletons.get(key)?.value === value && this.singletons.delete(key));
    const closeValue = close && (async () => close(await value));
    this.singletons.set(key, { value, close: closeValue });
    return value;
  }

  async close(): Promise<void> {
    await this.jobs.shutdown();
    for (const { value, close } of [...this.singletons.values()].reverse()) {
      if (await value.then(() => true, () => false)) await close?.();
    }
    this.singletons.clear();
    this.listeners.clear();
  }
}
