/**
 * The import dialog without a DOM: the column mapping (from the preview's suggestion), the
 * `vault.import` request, and the line numbers of the import report.
 */
import type { Split } from '../../../../electron/shared/api/vault';
import type { ImportPreview, ImportRequest } from '../../../../electron/shared/api/vaultFiles';

export const MAPPED_FIELDS = ['text', 'label', 'subject', 'split', 'output'] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];
/** Column per field; "" for not mapped. */
export type MappingState = Record<MappedField, string>;

export interface ImportOptions {
  split: Split;
  onBadRow: 'skip' | 'abort';
}

/**
 * The column whose preview values are all labels of the dataset (and at least two of them
 * filled): a "department" column of a dataset labelled by department, whatever its name.
 */
function labelColumnByValues(preview: ImportPreview, labels: readonly string[]): string {
  const label = new Set(labels);
  const fits = (column: string) => {
    const values = preview.rows.map((r) => r.values[column]).filter((v): v is string => v !== null && v !== undefined && v.trim() !== '');
    return values.length >= 2 && values.every((v) => label.has(v.trim()));
  };
  return labels.length > 0 ? (preview.columns.find(fits) ?? '') : '';
}

/** Column names that often hold who a row is about; taken only when the preview's values look like ids, not text (an email's "subject" line). */
const SUBJECT_NAMES = new Set(['subject', 'customer', 'client', 'user', 'person', 'author', 'sender', 'patient', 'who', 'owner', 'member', 'employee']);

/** A column named like a subject whose values are short tokens without spaces (ids such as "C006"). */
function subjectColumnByValues(preview: ImportPreview): string {
  const idLike = (column: string) => {
    const values = preview.rows.map((r) => r.values[column]).filter((v): v is string => v !== null && v !== undefined && v.trim() !== '');
    return values.length >= 1 && values.every((v) => v.trim().length <= 40 && !/\s/.test(v.trim()));
  };
  return preview.columns.find((c) => SUBJECT_NAMES.has(c.trim().toLowerCase()) && idLike(c)) ?? '';
}

export function initialMapping(preview: ImportPreview, labels: readonly string[] = []): MappingState {
  const known = (column: string | undefined) => (column && preview.columns.includes(column) ? column : '');
  const s = preview.suggestedMapping;
  return {
    text: known(s.text) || known('text') || (preview.columns[0] ?? ''),
    label: known(s.label) || labelColumnByValues(preview, labels),
    subject: known(s.subject) || subjectColumnByValues(preview),
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

/** "3, 7, 12 and 45 more" — the first few of a list of line numbers. */
export function lineList(lines: readonly number[], count: number, shown = 10): string {
  const head = lines.slice(0, shown).join(', ');
  return count > Math.min(lines.length, shown) ? `${head} and ${(count - Math.min(lines.length, shown)).toLocaleString('en-US')} more` : head;
}
