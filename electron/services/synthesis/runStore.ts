/**
 * Synthesis runs in the app database (migration 3). Runs still marked 'running' when the
 * app starts, whose job no live Veil process runs, were cut off by a crash: they become
 * 'interrupted' (their reservation stays charged in the ledger). A run's job is recorded
 * (in the same database) before the run, so a run whose job is not running is never one
 * being started.
 */
import { dpPromptSchema, type DpPromptExport } from '../../../core/export/dpPromptFormat';
import type { SynthesisRequest, SynthesisRunDto } from '../../shared/api/synthesis';
import { synthesisRequestSchema, utilitySchema } from '../../shared/api/synthesis';
import type { Database } from '../db/database';
import { markInterruptedRuns } from '../jobs/interruptedRuns';

type RunStatus = SynthesisRunDto['status'];
type Utility = NonNullable<SynthesisRunDto['utility']>;

interface RunRow {
  id: number;
  dataset_name: string;
  method: string;
  status: RunStatus;
  job_id: string;
  created_at: string;
  request_json: string;
  epsilon: number;
  delta: number;
  shots: number;
  ledger_entry_id: number | null;
  error: string | null;
  document_json: string | null;
  utility_json: string | null;
  teacher_evaluations: number | null;
  teacher_substitutions: number | null;
}

const INSERT = `INSERT INTO synthesis_runs (dataset_name, method, status, job_id, created_at, request_json, epsilon, delta, shots)
  VALUES ($dataset, $method, 'running', $jobId, $createdAt, $request, $epsilon, $delta, $shots)`;
const SELECT_ONE = 'SELECT * FROM synthesis_runs WHERE id = $id';
const SELECT_BY_LEDGER = 'SELECT * FROM synthesis_runs WHERE ledger_entry_id = $entryId';
const SELECT_ALL = 'SELECT * FROM synthesis_runs WHERE $dataset IS NULL OR dataset_name = $dataset ORDER BY id DESC LIMIT 500';
const FINISH = `UPDATE synthesis_runs SET status = $status, error = $error, document_json = $document WHERE id = $id`;
const SET_LEDGER = 'UPDATE synthesis_runs SET ledger_entry_id = $entryId WHERE id = $id';
const SET_TEACHERS = 'UPDATE synthesis_runs SET teacher_evaluations = $evaluated, teacher_substitutions = $substituted WHERE id = $id';
const SET_UTILITY = 'UPDATE synthesis_runs SET utility_json = $utility WHERE id = $id';

export class RunNotFoundError extends Error {}

function toDto(row: RunRow): SynthesisRunDto {
  return {
    id: row.id,
    dataset: row.dataset_name,
    method: synthesisRequestSchema.shape.method.parse(row.method),
    status: row.status,
    jobId: row.job_id,
    createdAt: row.created_at,
    epsilon: row.epsilon,
    delta: row.delta,
    shots: row.shots,
    ledgerEntryId: row.ledger_entry_id,
    error: row.error,
    document: row.document_json ? dpPromptSchema.parse(JSON.parse(row.document_json)) : null,
    // A stored check that no longer parses is shown as none (it can be run again), not as a failed list.
    utility: row.utility_json ? (utilitySchema.safeParse(JSON.parse(row.utility_json)).data ?? null) : null,
    teachers: row.teacher_evaluations === null ? null : { evaluated: row.teacher_evaluations, substituted: row.teacher_substitutions ?? 0 },
  };
}

export class RunStore {
  constructor(private readonly db: Database) {}

  async create(request: SynthesisRequest, jobId: string, delta: number): Promise<number> {
    const { lastId } = await this.db.run(INSERT, {
      dataset: request.dataset,
      method: request.method,
      jobId,
      createdAt: new Date().toISOString(),
      request: JSON.stringify(request),
      epsilon: request.epsilon,
      delta,
      shots: request.shots,
    });
    return lastId;
  }

  async get(id: number): Promise<SynthesisRunDto> {
    const row = await this.db.get<RunRow>(SELECT_ONE, { id });
    if (!row) throw new RunNotFoundError(`no synthesis run ${id}`);
    return toDto(row);
  }

  /** The request a run was started with (public settings: the audit re-runs it on a working copy). */
  async request(id: number): Promise<SynthesisRequest> {
    const row = await this.db.get<RunRow>(SELECT_ONE, { id });
    if (!row) throw new RunNotFoundError(`no synthesis run ${id}`);
    return synthesisRequestSchema.parse(JSON.parse(row.request_json));
  }

  /** The run whose ledger entry (its commit, once released) is `entryId`. */
  async byLedgerEntry(entryId: number): Promise<SynthesisRunDto | undefined> {
    const row = await this.db.get<RunRow>(SELECT_BY_LEDGER, { entryId });
    return row && toDto(row);
  }

  async list(dataset?: string): Promise<SynthesisRunDto[]> {
    return (await this.db.all<RunRow>(SELECT_ALL, { dataset: dataset ?? null })).map(toDto);
  }

  setLedgerEntry(id: number, entryId: number) {
    return this.db.run(SET_LEDGER, { id, entryId });
  }

  finish(id: number, status: Exclude<RunStatus, 'running'>, outcome: { error?: string; document?: DpPromptExport }) {
    return this.db.run(FINISH, { id, status, error: outcome.error ?? null, document: outcome.document ? JSON.stringify(outcome.document) : null });
  }

  /** The job's aggregate of teacher evaluations and substitutions, stored after the job has ended (never while it runs). */
  setTeachers(id: number, tally: { evaluated: number; substituted: number }) {
    return this.db.run(SET_TEACHERS, { id, ...tally });
  }

  /** Stores a utility check; one that does not fit its schema (a NaN score) is refused, never stored. */
  setUtility(id: number, utility: Utility) {
    return this.db.run(SET_UTILITY, { id, utility: JSON.stringify(utilitySchema.parse(utility)) });
  }

  /** Runs left 'running' whose job runs nowhere (not in another live Veil process either) become 'interrupted'. */
  markInterrupted(jobs: { isRunning(jobId: string): Promise<boolean> }): Promise<void> {
    return markInterruptedRuns(this.db, 'synthesis_runs', jobs);
  }
}
