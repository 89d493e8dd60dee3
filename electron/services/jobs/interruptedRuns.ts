/**
 * Runs of a job table (synthesis, answering) still marked 'running' when the app starts,
 * whose job no live Veil process runs, were cut off by a crash: they become 'interrupted'
 * (their reservation stays charged in the ledger). A run younger than a minute whose job no
 * record names yet may be one another process is starting (its job record comes a moment
 * after its run row), and is left alone.
 */
import type { Database } from '../db/database';

const STARTING_MS = 60_000;

export type RunTable = 'synthesis_runs' | 'answer_runs';

export async function markInterruptedRuns(
  db: Database,
  table: RunTable,
  jobs: { isRunning(jobId: string): boolean; isKnown(jobId: string): boolean },
): Promise<void> {
  const running = await db.all<{ id: number; job_id: string; created_at: string }>(`SELECT id, job_id, created_at FROM ${table} WHERE status = 'running'`);
  for (const run of running) {
    const starting = !jobs.isKnown(run.job_id) && Date.now() - Date.parse(run.created_at) < STARTING_MS;
    if (!starting && !jobs.isRunning(run.job_id)) {
      await db.run(`UPDATE ${table} SET status = 'interrupted', error = 'the app stopped while this run was going; its reservation stays charged' WHERE id = $id AND status = 'running'`, { id: run.id });
    }
  }
}
