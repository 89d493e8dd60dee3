/** Long-running work (imports, model loads, synthesis, audits) runs as jobs. */
import { z } from 'zod';
import { method } from './define';

export const jobStatusSchema = z.enum(['running', 'succeeded', 'failed', 'cancelled', 'interrupted']);

export const jobProgressSchema = z.object({
  jobId: z.string(),
  stage: z.string(),
  done: z.number(),
  total: z.number(),
  message: z.string().optional(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;

export const jobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: jobStatusSchema,
  progress: jobProgressSchema.omit({ jobId: true }).optional(),
  error: z.string().optional(),
  result: z.unknown().optional(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
});
export type JobRecord = z.infer<typeof jobSchema>;

const jobId = z.object({ id: z.string().min(1) }).strict();

export const jobMethods = {
  'jobs.list': method(z.object({}).strict(), z.array(jobSchema), 'Recent jobs, newest first'),
  'jobs.get': method(jobId, jobSchema, 'One job with its progress, result or error'),
  'jobs.cancel': method(jobId, z.object({ cancelled: z.boolean() }), 'Ask a running job to stop'),
};

export const jobEvents = {
  'job.progress': jobProgressSchema,
  'job.finished': jobSchema,
};
