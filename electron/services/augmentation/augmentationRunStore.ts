/**
 * Augmentation runs in the app database (migration 12). Runs still 'running' whose job no live
 * Veil process runs were cut off by a crash and become 'interrupted' (their reservation stays
 * charged). The generated examples are records of the public split; a run's certificate_json
 * holds its veil.augmentation/v1 document (the certificate and the examples it hashes).
 */
import { augmentationDocumentSchema, type AugmentationDocument } from '../../../core/export/augmentationFormat';
import { augmentationCertificateSchema, augmentRequestSchema, type AugmentationRunDto, type AugmentRequest } from '../../shared/api/augmentation';
import type { Database, Queryable } from '../db/database';
import { markInterruptedRuns } from '../jobs/interruptedRuns';
import { RefusalError } from '../refusalError';

interface RunRow {
  id: number;
  dataset_name: string;
  status: AugmentationRunDto['status'];
  job_id: string;
  created_at: string;
  request_json: string;
  ledger_entry_id: number | null;
  added: number;
  certificate_json: string | null;
  error: string | null;
}

const INSERT = `INSERT INTO augmentation_runs (dataset_name, status, job_id, created_at, request_json)
  VALUES ($dataset, 'running', $jobId, $createdAt, $request)`;
const SELECT_ALL = 'SELECT * FROM augmentation_runs WHERE $dataset IS NULL OR dataset_name = $dataset ORDER BY id DESC LIMIT 500';

const toDto = (row: RunRow): AugmentationRunDto => ({
  id: row.id,
  dataset: row.dataset_name,
  status: row.status,
  jobId: row.job_id,
  createdAt: row.created_at,
  request: augmentRequestSchema.parse(JSON.parse(row.request_json)),
  ledgerEntryId: row.ledger_entry_id,
  added: row.added,
  certificate: row.certificate_json ? (augmentationCertificateSchema.safeParse(JSON.parse(row.certificate_json)).data ?? null) : null,
  error: row.error,
});

export class AugmentationRunStore {
  constructor(private readonly db: Database) {}

  async create(request: AugmentRequest, jobId: string): Promise<number> {
    const { lastId } = await this.db.run(INSERT, { dataset: request.dataset, jobId, createdAt: new Date().toISOString(), request: JSON.stringify(request) });
    return lastId;
  }

  setLedgerEntry(id: number, entryId: number, q: Queryable = this.db) {
    return q.run('UPDATE augmentation_runs SET ledger_entry_id = $entryId WHERE id = $id', { id, entryId });
  }

  /** `q`: a transaction the caller holds (the one committing the ledger entry), else the database. */
  succeed(id: number, document: AugmentationDocument, q: Queryable = this.db) {
    return q.run("UPDATE augmentation_runs SET status = 'succeeded', added = $added, certificate_json = $certificate WHERE id = $id", {
      id, added: document.generated.added, certificate: JSON.stringify(document),
    });
  }

  fail(id: number, status: 'failed' | 'cancelled', error: string) {
    return this.db.run("UPDATE augmentation_runs SET status = $status, error = $error WHERE id = $id AND status = 'running'", { id, status, error });
  }

  async get(id: number): Promise<AugmentationRunDto> {
    const row = await this.db.get<RunRow>('SELECT * FROM augmentation_runs WHERE id = $id', { id });
    if (!row) throw new RefusalError(`no augmentation run ${id}`);
    return toDto(row);
  }

  /** The run's document as issued; null for a run without one (not succeeded, or issued before documents kept their examples). */
  async document(id: number): Promise<AugmentationDocument | null> {
    const row = await this.db.get<Pick<RunRow, 'certificate_json'>>('SELECT certificate_json FROM augmentation_runs WHERE id = $id', { id });
    if (!row) throw new RefusalError(`no augmentation run ${id}`);
    return row.certificate_json ? (augmentationDocumentSchema.safeParse(JSON.parse(row.certificate_json)).data ?? null) : null;
  }

  /** The document issued with a ledger commit, for naming what a verified file changed. */
  async documentByLedgerEntry(entryId: number): Promise<AugmentationDocument | undefined> {
    const row = await this.db.get<Pick<RunRow, 'id'>>('SELECT id FROM augmentation_runs WHERE ledger_entry_id = $entryId', { entryId });
    return (row && (await this.document(row.id))) ?? undefined;
  }

  async list(dataset?: string): Promise<AugmentationRunDto[]> {
    return (await this.db.all<RunRow>(SELECT_ALL, { dataset: dataset ?? null })).map(toDto);
  }

  markInterrupted(jobs: { isRunning(jobId: string): Promise<boolean> }): Promise<void> {
    return markInterruptedRuns(this.db, 'augmentation_runs', jobs);
  }
}
