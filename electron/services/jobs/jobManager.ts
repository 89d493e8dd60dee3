/**
 * Jobs: long work with an id, progress events, cancel (AbortSignal) and a result.
 * Status is persisted to <dataDir>/jobs.json so that a restart marks jobs that were
 * running as 'interrupted'. The app and the CLI may share a data directory: each record
 * names the process that runs it, writes merge with what other processes wrote, and a
 * job of another live process stays 'running' (the ledger then shows its reservation as
 * in progress, not as abandoned). Job results must not contain private text.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EventName, EventPayload } from '../../shared/contract';
import { jobSchema, type JobRecord } from '../../shared/api/jobs';
import { RefusalError } from '../refusalError';

export interface JobContext {
  readonly id: string;
  readonly signal: AbortSignal;
  /** Report progress (stage, done of total, optional message). */
  progress(stage: string, done: number, total: number, message?: string): void;
  /** Throw if the job was cancelled. */
  throwIfCancelled(): void;
}

export class JobCancelledError extends Error {
  constructor() {
    super('job cancelled');
  }
}

export const newJobId = (): string => randomUUID();

type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
const KEEP = 200;

const persistedSchema = z.array(jobSchema.extend({ ownerPid: z.number().int().optional() }));
type PersistedJob = z.infer<typeof persistedSchema>[number];

/** A process other than this one that is still alive (signal 0 probes without sending). */
function aliveElsewhere(pid: number | undefined): boolean {
  if (pid === undefined || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class JobManager {
  private readonly records = new Map<string, JobRecord>();
  private readonly running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  /** Jobs started by this manager: the records it owns in the shared file. */
  private readonly own = new Set<string>();
  private readonly file: string;

  constructor(dataDir: string, private readonly emit: Emit) {
    this.file = join(dataDir, 'jobs.json');
    this.load();
  }

  /**
   * Start `work` as a job and return its id at once; `wait(id)` gives the outcome. `id`
   * may be chosen beforehand (`newJobId()`) when something must name the job before it runs.
   */
  start<T>(kind: string, work: (job: JobContext) => Promise<T>, id = newJobId()): string {
    if (this.records.has(id)) throw new Error(`job ${id} exists already`);
    const controller = new AbortController();
    const record: JobRecord = { id, kind, status: 'running', startedAt: new Date().toISOString() };
    this.records.set(id, record);
    this.own.add(id);
    this.persist();
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
    this.running.set(id, { controller, done });
    return id;
  }

  /** Resolve when the job ends; returns its final record. */
  async wait(id: string): Promise<JobRecord> {
    await this.running.get(id)?.done;
    return this.get(id);
  }

  get(id: string): JobRecord {
    const record = this.records.get(id);
    if (!record) throw new RefusalError(`no job with id ${id}`);
    return record;
  }

  /** Running here, or in another live process sharing the data directory. */
  isRunning(id: string): boolean {
    if (this.running.has(id)) return true;
    const record = this.readFile().find((r) => r.id === id);
    return record?.status === 'running' && aliveElsewhere(record.ownerPid);
  }

  /** Recorded here or in the shared jobs file (by any process, running or not). */
  isKnown(id: string): boolean {
    return this.records.has(id) || this.readFile().some((r) => r.id === id);
  }

  list(): JobRecord[] {
    return [...this.records.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  cancel(id: string): boolean {
    const entry = this.running.get(id);
    if (!entry) return false;
    entry.controller.abort();
    return true;
  }

  /** Cancel everything still running and wait for it to settle. */
  async shutdown(): Promise<void> {
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  private finish(record: JobRecord, status: JobRecord['status'], extra: Partial<JobRecord>): void {
    Object.assign(record, extra, { status, endedAt: new Date().toISOString() });
    this.running.delete(record.id);
    this.persist();
    this.emit('job.finished', record);
  }

  private readFile(): PersistedJob[] {
    if (!existsSync(this.file)) return [];
    try {
      const parsed = persistedSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data : [];
    } catch {
      return []; // a torn or foreign file: start afresh rather than refuse to run
    }
  }

  /** Records from the file; those whose process is gone are marked interrupted (and become ours to write). */
  private load(): void {
    const stored = this.readFile();
    if (stored.length === 0) return; // nothing to take over: write nothing until a job starts
    for (const { ownerPid, ...record } of stored) {
      if (record.status === 'running' && !aliveElsewhere(ownerPid)) {
        Object.assign(record, { status: 'interrupted', endedAt: new Date().toISOString() });
        this.own.add(record.id);
      }
      this.records.set(record.id, record);
    }
    this.persist();
  }

  /** Writes our records over the current file, keeping what other processes wrote there. */
  private persist(): void {
    const merged = new Map<string, PersistedJob>(this.readFile().map((r) => [r.id, r]));
    for (const id of this.own) merged.set(id, { ...this.records.get(id)!, ownerPid: process.pid });
    const recent = [...merged.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt)).slice(0, KEEP);
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(recent), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
