/** A job without a DOM: how far it has got, in percent, and its result read through its schema. */
import type { z } from 'zod';
import type { JobProgress, JobRecord } from '../../../electron/shared/api/jobs';

/** 0–100 from the job's done/total, or null before the first progress event (or with no total). */
export function jobPercent(progress: Omit<JobProgress, 'jobId'> | undefined): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.round((100 * Math.min(progress.done, progress.total)) / progress.total);
}

/** The result of a job that succeeded, if it has the expected shape; null otherwise. */
export function jobResult<T>(schema: z.ZodType<T>, record: Pick<JobRecord, 'status' | 'result'>): T | null {
  if (record.status !== 'succeeded') return null;
  const parsed = schema.safeParse(record.result);
  return parsed.success ? parsed.data : null;
}
