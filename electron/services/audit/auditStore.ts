/**
 * Audit runs in the app database (migration 10). Runs still 'running' whose job no live
 * Veil process runs were cut off by a crash and become 'interrupted' (nothing was charged).
 */
import { auditResultSchema, type AuditRequest, type AuditResult, type AuditRunDto } from '../../shared/api/audit';
import type { Database } from '../db/database';
import { RefusalError } from '../refusalError';
import { markInterruptedRuns } from '../jobs/interruptedRuns';

interface AuditRow {
  id: number;
  dataset_name: string;
  status: AuditRunDto['status'];
  job_id: string;
  created_at: string;
  request_json: string;
  result_json: string | null;
  error: string | null;
}

const INSERT = `INSERT INTO audit_runs (dataset_name, status, job_id, created_at, request_json)
  VALUES ($dataset, 'running', $jobId, $createdAt, $request)`;
const FINISH = 'UPDATE audit_runs SET status = $status, result_json = $result, error = $error WHERE id = $id';
const SELECT_ONE = 'SELECT * FROM audit_runs WHERE id = $id';
const SELECT_ALL = 'SELECT * FROM audit_runs WHERE $dataset IS NULL OR dataset_name = $dataset ORDER BY id DESC LIMIT 500';

/** A target's display name (a brought prompt's text or document is never part of it). */
export function targetName(spec: AuditRequest['targets'][number]): string {
  if (spec.kind === 'baseline') return `plain ${spec.shots}-shot prompt of private records`;
  if (spec.kind === 'run') return `DP synthesis run ${spec.runId}`;
  if (spec.kind === 'answering') return `private answering (${spec.aggregation ?? 'default aggregation'}, ε = ${spec.epsilon} per query, M = ${spec.ensemble}, ${spec.shots} shots)`;
  return spec.name ?? (spec.kind === 'dp-prompt' ? 'DP prompt file' : 'prompt file');
}

function toDto(row: AuditRow): AuditRunDto {
  const request = JSON.parse(row.request_json) as AuditRequest;
  return {
    id: row.id,
    dataset: row.dataset_name,
    status: row.status,
    jobId: row.job_id,
    createdAt: row.created_at,
    request: {
      targets: request.targets.map((t) => ({ kind: t.kind, name: targetName(t) })),
      attacks: request.attacks,
      members: request.members,
      balance: request.balance,
      canaries: request.canaries,
    },
    result: row.result_json ? (auditResultSchema.safeParse(JSON.parse(row.result_json)).data ?? null) : null,
    error: row.error,
  };
}

export class AuditStore {
  constructor(private readonly db: Database) {}

  async create(request: AuditRequest, jobId: string): Promise<number> {
    const { lastId } = await this.db.run(INSERT, { dataset: request.dataset, jobId, createdAt: new Date().toISOString(), request: JSON.stringify(request) });
    return lastId;
  }

  finish(id: number, status: Exclude<AuditRunDto['status'], 'running'>, outcome: { result?: AuditResult; error?: string }) {
    return this.db.run(FINISH, { id, status, result: outcome.result ? JSON.stringify(outcome.result) : null, error: outcome.error ?? null });
  }

  async get(id: number): Promise<AuditRunDto> {
    const row = await this.db.get<AuditRow>(SELECT_ONE, { id });
    if (!row) throw new RefusalError(`no audit ${id}`);
    return toDto(row);
  }

  async list(dataset?: string): Promise<AuditRunDto[]> {
    return (await this.db.all<AuditRow>(SELECT_ALL, { dataset: dataset ?? null })).map(toDto);
  }

  markInterrupted(jobs: { isRunning(jobId: string): Promise<boolean> }): Promise<void> {
    return markInterruptedRuns(this.db, 'audit_runs', jobs, 'the app stopped while this audit was running');
  }
}
