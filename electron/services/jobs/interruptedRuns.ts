/**
 * Runs of a job table (synthesis, answering, audit) still marked 'running' whose job no live Veil
 * process runs were cut off by a crash: they become 'interrupted' (their reservation stays
 * charged in the ledger). Job records are written before a run's row (JobManager.register),
 * so a run whose job is not running is never one another process is still starting.
 */
import type { Database } from '../db/database';

export type RunTable = 'synthesis_runs' | 'answer_runs' | 'audit_runs' | 'augmentation_runs';

const CHARGED = 'the app stopped while this run was going; its reservation stays charged';

export async function markInterruptedRuns(db: Database, table: RunTable, jobs: { isRunning(jobId: string): Promise<boolean> }, error = CHARGED): Promise<void> {
  const running = await db.all<{ id: number; job_id: string }>(`SELECT id, job_id FROM ${table} WHERE status = 'running'`);
  for (const run of running) {
    if (await jobs.isRunning(run.job_id)) continue;
    await db.run(`UPDATE ${table} SET status = 'interrupted', error = $error WHERE id = $id AND status = 'running'`, { id: run.id, error });
  }
}
