/**
 * Overall progress of a model.loadGguf job from its latest progress event. The service
 * reports four stages in order (validate → hash → start → load), each with done/total;
 * each stage counts for a quarter of the bar.
 */
import type { JobProgress } from '../../../../electron/shared/api/jobs';

const STAGES: Record<string, string> = {
  validate: 'Checking the GGUF header',
  hash: 'Computing the SHA-256',
  start: 'Starting the model host',
  load: 'Loading weights',
};
const ORDER = Object.keys(STAGES);

export interface LoadProgressView {
  /** 0–100, or null when the stage is unknown (show an indeterminate bar). */
  percent: number | null;
  label: string;
}

export function loadProgressView(progress: Omit<JobProgress, 'jobId'> | undefined): LoadProgressView {
  if (!progress) return { percent: 0, label: 'Starting…' };
  const index = ORDER.indexOf(progress.stage);
  if (index < 0) return { percent: null, label: progress.message ?? progress.stage };
  const within = progress.total > 0 ? Math.min(1, Math.max(0, progress.done / progress.total)) : 0;
  return {
    percent: Math.round(((index + within) / ORDER.length) * 100),
    label: `Step ${index + 1} of ${ORDER.length}: ${STAGES[progress.stage]}`,
  };
}
