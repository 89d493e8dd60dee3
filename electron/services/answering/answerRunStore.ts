/**
 * Answering runs in the app database (migration 9). Runs cut off by a crash become
 * 'interrupted' at startup (jobs/interruptedRuns.ts); their reservation stays charged.
 */
import { dpAnswersSchema, type DpAnswersExport } from '../../../core/export/dpAnswersFormat';
import { answerEvaluationSchema, answerMethodSchema, type AnswerEvaluation, type AnswerRunDto } from '../../shared/api/answering';
import type { Database } from '../db/database';
import { markInterruptedRuns } from '../jobs/interruptedRuns';

type RunStatus = AnswerRunDto['status'];

interface RunRow {
  id: number;
  dataset_name: string;
  aggregation: string;
  status: RunStatus;
  job_id: string;
  created_at: string;
  epsilon: number;
  delta: number;
  queries: number;
  ledger_entry_id: number | null;
  error: string | null;
  failed_teachers: number | null;
  document_json: string | null;
  evaluation_json: string | null;
}

const INSERT = `INSERT INTO answer_runs (dataset_name, aggregation, status, job_id, created_at, request_json, epsilon, delta, queries)
  VALUES ($dataset, $aggregation, 'running', $jobId, $createdAt, $request, $epsilon, $delta, $queries)`;
const SELECT_ONE = 'SELECT * FROM answer_runs WHERE id = $id';
const SELECT_BY_LEDGER = 'SELECT * FROM answer_runs WHERE ledger_entry_id = $entryId';
const SELECT_ALL = 'SELECT * FROM answer_runs WHERE $dataset IS NULL OR dataset_name = $dataset ORDER BY id DESC LIMIT 500';
const FINISH = `UPDATE answer_runs SET status = $status, error = $error, document_json = $document, failed_teachers = $failed WHERE id = $id`;
const SET_LEDGER = 'UPDATE answer_runs SET ledger_entry_id = $entryId WHERE id = $id';
const SET_EVALUATION = 'UPDATE answer_runs SET evaluation_json = $evaluation WHERE id = $id';

export class AnswerRunNotFoundError extends Error {}

function toDto(row: RunRow): AnswerRunDto {
  return {
    id: row.id,
    dataset: row.dataset_name,
    aggregation: answerMethodSchema.parse(row.aggregation),
    status: row.status,
    jobId: row.job_id,
    createdAt: row.created_at,
    epsilon: row.epsilon,
    delta: row.delta,
    queries: row.queries,
    ledgerEntryId: row.ledger_entry_id,
    error: row.error,
    failedTeachers: row.failed_teachers,
    document: row.document_json ? dpAnswersSchema.parse(JSON.parse(row.document_json)) : null,
    evaluation: row.evaluation_json ? (answerEvaluationSchema.safeParse(JSON.parse(row.evaluation_json)).data ?? null) : null,
  };
}

export interface NewAnswerRun {
  dataset: string;
  aggregation: AnswerRunDto['aggregation'];
  jobId: string;
  /** The request as stored (the queries are the analyst's public input). */
  request: unknown;
  epsilon: number;
  delta: number;
  queries: number;
}

export class AnswerRunStore {
  constructor(private readonly db: Database) {}

  async create(run: NewAnswerRun): Promise<number> {
    const { lastId } = await this.db.run(INSERT, {
      dataset: run.dataset, aggregation: run.aggregation, jobId: run.jobId, createdAt: new Date().toISOString(),
      request: JSON.stringify(run.request), epsilon: run.epsilon, delta: run.delta, queries: run.queries,
    });
    return lastId;
  }

  async get(id: number): Promise<AnswerRunDto> {
    const row = await this.db.get<RunRow>(SELECT_ONE, { id });
    if (!row) throw new AnswerRunNotFoundError(`no answering run ${id}`);
    return toDto(row);
  }

  async byLedgerEntry(entryId: number): Promise<AnswerRunDto | undefined> {
    const row = await this.db.get<RunRow>(SELECT_BY_LEDGER, { entryId });
    return row && toDto(row);
  }

  async list(dataset?: string): Promise<AnswerRunDto[]> {
    return (await this.db.all<RunRow>(SELECT_ALL, { dataset: dataset ?? null })).map(toDto);
  }

  setLedgerEntry(id: number, entryId: number) {
    return this.db.run(SET_LEDGER, { id, entryId });
  }

  finish(id: number, status: Exclude<RunStatus, 'running'>, outcome: { error?: string; document?: DpAnswersExport; failedTeachers?: number }) {
    return this.db.run(FINISH, { id, status, error: outcome.error ?? null, document: outcome.document ? JSON.stringify(outcome.document) : null, failed: outcome.failedTeachers ?? null });
  }

  setEvaluation(id: number, evaluation: AnswerEvaluation) {
    return this.db.run(SET_EVALUATION, { id, evaluation: JSON.stringify(answerEvaluationSchema.parse(evaluation)) });
  }

  markInterrupted(jobs: { isRunning(jobId: string): Promise<boolean> }): Promise<void> {
    return markInterruptedRuns(this.db, 'answer_runs', jobs);
  }
}
