/**
 * Job records in the app database (migration 7): every write is one statement or one
 * transaction, so processes sharing the data directory never overwrite each other's
 * records. A running record whose owning process is gone is marked 'interrupted' by
 * whoever reads it — never while its process lives (processLiveness.ts).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { jobSchema, type JobRecord } from '../../shared/api/jobs';
import type { Database, Queryable } from '../db/database';
import { ownerAlive } from './processLiveness';

/** Finished records kept (running ones are always kept). */
const KEEP = 200;

interface JobRow {
  id: string;
  kind: string;
  status: JobRecord['status'];
  started_at: string;
  ended_at: string | null;
  progress_json: string | null;
  result_json: string | null;
  error: string | null;
  owner_pid: number | null;
  owner_start: string | null;
  heartbeat_at: string | null;
}

export interface JobOwner {
  pid: number;
  start: string | null;
}

const INSERT = `INSERT INTO jobs (id, kind, status, started_at, owner_pid, owner_start, heartbeat_at)
  VALUES ($id, $kind, 'running', $startedAt, $pid, $start, $startedAt)`;
const PRUNE = `DELETE FROM jobs WHERE status <> 'running' AND id NOT IN (SELECT id FROM jobs WHERE status <> 'running' ORDER BY started_at DESC LIMIT ${KEEP})`;
const FINISH = `UPDATE jobs SET status = $status, ended_at = $endedAt, progress_json = $progress, result_json = $result, error = $error
  WHERE id = $id AND status = 'running'`;
const HEARTBEAT = `UPDATE jobs SET heartbeat_at = $now, progress_json = COALESCE($progress, progress_json) WHERE id = $id AND status = 'running'`;
const INTERRUPT = `UPDATE jobs SET status = 'interrupted', ended_at = $now
  WHERE id = $id AND status = 'running' AND owner_pid IS $pid AND owner_start IS $start`;
const SELECT_ONE = 'SELECT * FROM jobs WHERE id = $id';
const SELECT_RECENT = `SELECT * FROM jobs ORDER BY started_at DESC LIMIT ${KEEP}`;
const DELETE_ONE = `DELETE FROM jobs WHERE id = $id AND status = 'running'`;
const IMPORT_LEGACY = `INSERT OR IGNORE INTO jobs (id, kind, status, started_at, ended_at, progress_json, result_json, error, owner_pid, owner_start, heartbeat_at)
  VALUES ($id, $kind, $status, $startedAt, $endedAt, $progress, $result, $error, $pid, NULL, $now)`;

const parse = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

function toRecord(row: JobRow): JobRecord {
  const record: JobRecord = { id: row.id, kind: row.kind, status: row.status, startedAt: row.started_at };
  if (row.ended_at !== null) record.endedAt = row.ended_at;
  if (row.progress_json !== null) record.progress = parse(row.progress_json) as JobRecord['progress'];
  if (row.result_json !== null) record.result = parse(row.result_json);
  if (row.error !== null) record.error = row.error;
  return record;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

export class JobStore {
  constructor(private readonly db: Database) {}

  async insert(id: string, kind: string, owner: JobOwner): Promise<JobRecord> {
    const startedAt = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      await tx.run(INSERT, { id, kind, startedAt, pid: owner.pid, start: owner.start });
      await tx.run(PRUNE);
    });
    return { id, kind, status: 'running', startedAt };
  }

  async finish(record: JobRecord): Promise<void> {
    await this.db.run(FINISH, {
      id: record.id,
      status: record.status,
      endedAt: record.endedAt ?? new Date().toISOString(),
      progress: json(record.progress),
      result: json(record.result),
      error: record.error ?? null,
    });
  }

  /** The owner is alive: refreshes the heartbeat (and the last progress) of its running jobs. */
  async heartbeat(records: readonly JobRecord[]): Promise<void> {
    if (records.length === 0) return;
    const now = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      for (const r of records) await tx.run(HEARTBEAT, { id: r.id, now, progress: json(r.progress) });
    });
  }

  /** Removes a running record whose work never started (the call that registered it failed first). */
  async discard(id: string): Promise<void> {
    await this.db.run(DELETE_ONE, { id });
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const row = await this.db.get<JobRow>(SELECT_ONE, { id });
    return row && (await this.settled(row));
  }

  async recent(): Promise<JobRecord[]> {
    return Promise.all((await this.db.all<JobRow>(SELECT_RECENT)).map((row) => this.settled(row)));
  }

  /** A running row whose owner is gone becomes 'interrupted' (only if the row is still as read). */
  private async settled(row: JobRow): Promise<JobRecord> {
    if (row.status !== 'running' || ownerAlive({ pid: row.owner_pid, start: row.owner_start, heartbeatAt: row.heartbeat_at })) return toRecord(row);
    const now = new Date().toISOString();
    await this.db.run(INTERRUPT, { id: row.id, now, pid: row.owner_pid, start: row.owner_start });
    return toRecord((await this.db.get<JobRow>(SELECT_ONE, { id: row.id })) ?? { ...row, status: 'interrupted', ended_at: now });
  }

  /**
   * Takes over the records of a jobs.json left by an older Veil (in one transaction; a record
   * already in the database is kept), then removes the file. A file that does not parse holds
   * nothing worth keeping (job records carry no private data) and is removed as well.
   */
  async importLegacyFile(file: string): Promise<void> {
    if (!existsSync(file)) return;
    const legacy = legacySchema.safeParse(readJson(file));
    const now = new Date().toISOString();
    if (legacy.success) {
      await this.db.transaction(async (tx: Queryable) => {
        for (const r of legacy.data) {
          await tx.run(IMPORT_LEGACY, {
            id: r.id, kind: r.kind, status: r.status, startedAt: r.startedAt, endedAt: r.endedAt ?? null,
            progress: json(r.progress), result: json(r.result), error: r.error ?? null, pid: r.ownerPid ?? null, now,
          });
        }
      });
    }
    rmSync(file, { force: true });
  }
}

const legacySchema = z.array(jobSchema.extend({ ownerPid: z.number().int().optional() }));

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
