/**
 * Jobs: long work with an id, progress events, cancel (AbortSignal) and a result. Records
 * live in the app database (jobStore.ts), shared with every Veil process on the data
 * directory: a job of another live process stays 'running' (the ledger shows its
 * reservation as in progress), and one whose process is gone reads as 'interrupted'.
 * While jobs run here, a heartbeat refreshes their records and their last progress.
 * Job results must not contain private text.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { EventName, EventPayload } from '../../shared/contract';
import type { JobRecord } from '../../shared/api/jobs';
import { DATABASE_FILE, openAppDatabase } from '../db/appDatabase';
import type { Database } from '../db/database';
import { RefusalError } from '../refusalError';
import { JobStore, type JobOwner } from './jobStore';
import { processStartIdentity } from './processLiveness';

export interface JobContext {
  readonly id: string;
  readonly signal: AbortSignal;
  /** Report progress (stage, done of total, optional message). */
  progress(stage: string, done: number, total: number, message?: string): void;
  /** Throw if the job was cancelled. */
  throwIfCancelled(): void;
}

class JobCancelledError extends Error {
  constructor() {
    super('job cancelled');
  }
}

const newJobId = (): string => randomUUID();

type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
const HEARTBEAT_MS = 10_000;
const owner: JobOwner = { pid: process.pid, start: processStartIdentity(process.pid) };

export class JobManager {
  private readonly running = new Map<string, { record: JobRecord; controller: AbortController; done: Promise<unknown> }>();
  /** Registered here, not started yet. */
  private readonly registered = new Map<string, JobRecord>();
  private store?: Promise<JobStore>;
  private ownDb?: Promise<Database>;
  private heartbeat?: NodeJS.Timeout;

  /** `database` gives the shared connection (the context's); without it the manager opens its own. */
  constructor(
    private readonly dataDir: string,
    private readonly emit: Emit,
    private readonly database?: () => Promise<Database>,
  ) {}

  private jobStore(): Promise<JobStore> {
    this.store ??= (async () => {
      const db = await (this.database ? this.database() : (this.ownDb = openAppDatabase(join(this.dataDir, DATABASE_FILE))));
      const store = new JobStore(db);
      await store.importLegacyFile(join(this.dataDir, 'jobs.json'));
      return store;
    })();
    this.store.catch(() => (this.store = undefined)); // try again on the next call
    return this.store;
  }

  /**
   * Writes the record of a job that will run here ('running', owned by this process) and
   * returns its id; `run(id, work)` starts it, `discard(id)` drops it if it never starts. A
   * caller that writes rows naming the job (a synthesis run) registers it first, so that no
   * process ever sees such a row with no job record.
   */
  async register(kind: string, id = newJobId()): Promise<string> {
    if (this.running.has(id) || this.registered.has(id)) throw new Error(`job ${id} exists already`);
    this.registered.set(id, await (await this.jobStore()).insert(id, kind, owner));
    return id;
  }

  async discard(id: string): Promise<void> {
    if (!this.registered.delete(id)) return;
    await (await this.jobStore()).discard(id);
  }

  /** Registers and runs `work` as a job; returns its id once recorded. `wait(id)` gives the outcome. */
  async start<T>(kind: string, work: (job: JobContext) => Promise<T>, id?: string): Promise<string> {
    return this.run(await this.register(kind, id), work);
  }

  /**
   * Registers a job, lets `prepare` write what names it (a reservation, a run row), then runs
   * `work` on what it prepared. A failing `prepare` discards the record and rethrows: nothing runs.
   */
  async launch<P>(kind: string, prepare: (jobId: string) => Promise<P>, work: (job: JobContext, prepared: P) => Promise<unknown>): Promise<{ jobId: string; prepared: P }> {
    const jobId = await this.register(kind);
    let prepared: P;
    try {
      prepared = await prepare(jobId);
    } catch (error) {
      await this.discard(jobId);
      throw error;
    }
    this.run(jobId, (job) => work(job, prepared));
    return { jobId, prepared };
  }

  run<T>(id: string, work: (job: JobContext) => Promise<T>): string {
    const record = this.registered.get(id);
    if (!record) throw new Error(`job ${id} is not registered`);
    this.registered.delete(id);
    const controller = new AbortController();
    const job: JobContext = {
      id,
      signal: controller.signal,
      progress: (stage, done, total, message) => {
        record.progress = { stage, done, total, message };
        this.emit('job.progress', { jobId: id, stage, done, total, message });
      },
      throwIfCancelled: () => {
        if (controller.signal.aborted) throw new JobCancelledError();
      },
    };
    const done = Promise.resolve()
      .then(() => work(job))
      .then(
        (result) => this.finish(record, 'succeeded', { result }),
        (error: unknown) =>
          controller.signal.aborted || error instanceof JobCancelledError
            ? this.finish(record, 'cancelled', {})
            : this.finish(record, 'failed', { error: error instanceof Error ? error.message : String(error) }),
      );
    this.running.set(id, { record, controller, done });
    this.beat();
    return id;
  }

  /** Resolve when the job ends; returns its final record. */
  async wait(id: string): Promise<JobRecord> {
    const entry = this.running.get(id);
    if (!entry) return this.get(id);
    await entry.done.catch(() => undefined); // a record that could not be written is still the outcome
    return { ...entry.record };
  }

  /** The record: this process's live copy, or the shared one (another process's jobs). */
  async get(id: string): Promise<JobRecord> {
    const local = this.running.get(id)?.record;
    if (local) return { ...local };
    const record = await (await this.jobStore()).get(id);
    if (!record) throw new RefusalError(`no job with id ${id}`);
    return record;
  }

  /** Running here, or in another live process sharing the data directory. */
  async isRunning(id: string): Promise<boolean> {
    if (this.running.has(id) || this.registered.has(id)) return true;
    return (await (await this.jobStore()).get(id))?.status === 'running';
  }

  /** Recent jobs of every process, newest first (this process's with their live progress). */
  async list(): Promise<JobRecord[]> {
    const records = await (await this.jobStore()).recent();
    return records.map((r) => (this.running.has(r.id) ? { ...this.running.get(r.id)!.record } : r));
  }

  cancel(id: string): boolean {
    const entry = this.running.get(id);
    if (!entry) return false;
    entry.controller.abort();
    return true;
  }

  /** Cancel everything still running, wait for it to settle, and close the manager's own connection. */
  async shutdown(): Promise<void> {
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    for (const id of [...this.registered.keys()]) await this.discard(id).catch(() => undefined);
    if (this.ownDb) await (await this.ownDb).close();
    this.ownDb = undefined;
    this.store = undefined;
  }

  private async finish(record: JobRecord, status: JobRecord['status'], extra: Partial<JobRecord>): Promise<void> {
    Object.assign(record, extra, { status, endedAt: new Date().toISOString() });
    try {
      await (await this.jobStore()).finish(record);
    } finally {
      this.running.delete(record.id);
      this.beat();
      this.emit('job.finished', { ...record });
    }
  }

  /** A heartbeat while jobs run here (unref'd: it never keeps the process alive). */
  private beat(): void {
    if (this.running.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    } else {
      this.heartbeat ??= setInterval(() => {
        const records = [...this.running.values()].map((r) => r.record);
        void this.jobStore().then((store) => store.heartbeat(records)).catch(() => undefined);
      }, HEARTBEAT_MS).unref();
    }
  }
}
