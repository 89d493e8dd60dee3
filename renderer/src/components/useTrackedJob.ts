/**
 * Follow one job: progress from job.progress events and the outcome from job.finished.
 * jobs.get backs the events up — a tiny model can finish before the event stream has
 * connected, and a dropped stream must not leave the bar stuck.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { VeilApi } from '../../../electron/shared/contract';
import type { JobProgress, JobRecord } from '../../../electron/shared/api/jobs';

const POLL_MS = 2_000;

export interface TrackedJob {
  id: string;
  progress?: Omit<JobProgress, 'jobId'>;
  /** Set once the job has ended (succeeded, failed, cancelled or interrupted). */
  finished?: JobRecord;
}

export function useTrackedJob(api: VeilApi, onFinished: (record: JobRecord) => void) {
  const [job, setJob] = useState<TrackedJob | null>(null);
  const trackedId = useRef<string | null>(null);
  const onFinishedRef = useRef(onFinished);
  useEffect(() => {
    onFinishedRef.current = onFinished;
  }, [onFinished]);

  const finish = useCallback((record: JobRecord) => {
    if (record.id !== trackedId.current || record.status === 'running') return;
    trackedId.current = null;
    setJob({ id: record.id, progress: record.progress, finished: record });
    onFinishedRef.current(record);
  }, []);

  const updateProgress = useCallback((id: string, progress: Omit<JobProgress, 'jobId'> | undefined) => {
    if (id !== trackedId.current || !progress) return;
    setJob((current) => (current?.id === id && !current.finished ? { ...current, progress } : current));
  }, []);

  useEffect(() => {
    const offProgress = api.on('job.progress', ({ jobId, ...progress }) => updateProgress(jobId, progress));
    const offFinished = api.on('job.finished', finish);
    return () => {
      offProgress();
      offFinished();
    };
  }, [api, finish, updateProgress]);

  const runningId = job && !job.finished ? job.id : null;
  useEffect(() => {
    if (!runningId) return;
    const check = () =>
      api['jobs.get']({ id: runningId }).then(
        (record) => (record.status === 'running' ? updateProgress(record.id, record.progress) : finish(record)),
        () => undefined,
      );
    void check();
    const timer = setInterval(check, POLL_MS);
    return () => clearInterval(timer);
  }, [api, runningId, finish, updateProgress]);

  const track = useCallback((id: string) => {
    trackedId.current = id;
    setJob({ id });
  }, []);

  return { job, track };
}
