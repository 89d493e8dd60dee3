/**
 * The import dialog without a DOM: the column mapping (from the preview's suggestion), the
 * `vault.import` request, the progress bar from the job's events, and the import report
 * read back from the finished job.
 */
import type { JobProgress } from '../../../../electron/shared/api/jobs';
import type { Split } from '../../../../electron/shared/api/vault';
import { importReportSchema, type ImportPreview, type ImportReport, type ImportRequest } from '../../../../electron/shared/api/vaultFiles';

export const MAPPED_FIELDS = ['text', 'label', 'subject', 'split', 'output'] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];
/** Column per field; "" for not mapped. */
export type MappingState = Record<MappedField, string>;

export interface ImportOptions {
  split: Split;
  onBadRow: 'skip' | 'abort';
}

export function initialMapping(preview: ImportPreview): MappingState {
  const known = (column: string | undefined) => (column && preview.columns.includes(column) ? column : '');
  const s = preview.suggestedMapping;
  return {
    text: known(s.text) || known('text') || (preview.columns[0] ?? ''),
    label: known(s.label),
    subject: known(s.subject),
    split: known(s.split),
    output: known(s.output),
  };
}

/** A plain-text file has no columns: every line is a text. */
export const hasColumns = (preview: ImportPreview) => preview.format !== 'txt';

export function importRequest(dataset: number, preview: ImportPreview, mapping: MappingState, options: ImportOptions): ImportRequest {
  const columns = hasColumns(preview);
  const mapped = Object.fromEntries(MAPPED_FIELDS.filter((f) => columns && mapping[f] !== '').map((f) => [f, mapping[f]]));
  return {
    dataset,
    path: preview.path,
    format: preview.format,
    ...(preview.delimiter ? { delimiter: preview.delimiter } : {}),
    mapping: { text: 'text', ...mapped },
    split: options.split,
    onBadRow: options.onBadRow,
  };
}

/** 0–100 from bytes read, or null before the first progress event. */
export function importPercent(progress: Omit<JobProgress, 'jobId'> | undefined): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.round((100 * Math.min(progress.done, progress.total)) / progress.total);
}

export function reportOf(result: unknown): ImportReport | null {
  const parsed = importReportSchema.safeParse(result);
  return parsed.success ? parsed.data : null;
}

/** "3, 7, 12 and 45 more" — the first few of a list of line numbers. */
export function lineList(lines: readonly number[], count: number, shown = 10): string {
  const head = lines.slice(0, shown).join(', ');
  return count > Math.min(lines.length, shown) ? `${head} and ${(count - Math.min(lines.length, shown)).toLocaleString('en-US')} more` : head;
}
