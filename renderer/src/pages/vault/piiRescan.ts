/**
 * The PII rescan without a DOM: the status line while `vault.scanPii` runs, and the report's
 * summary (records scanned, records changed, records with each kind of finding afterwards).
 */
import type { JobProgress } from '../../../../electron/shared/api/jobs';
import type { PiiRescanReport } from '../../../../electron/shared/api/vault';
import { formatCount } from '../../components/format';

const records = (n: number) => `${formatCount(n)} record${n === 1 ? '' : 's'}`;

/** "Scanned 1,000 of 2,398 records · 3 changed" (the service's message says how many changed). */
export function rescanProgressText(progress: Omit<JobProgress, 'jobId'>): string {
  return `Scanned ${formatCount(progress.done)} of ${records(progress.total)}${progress.message ? ` · ${progress.message}` : ''}`;
}

/** "Scanned 2,398 records in 1.2 s: 3 records changed." */
export function rescanSummary(report: PiiRescanReport): string {
  const changed = report.changed === 0 ? 'no record changed' : `${records(report.changed)} changed (each has a history entry)`;
  return `Scanned ${records(report.records)} in ${report.seconds.toFixed(1)} s: ${changed}.`;
}

