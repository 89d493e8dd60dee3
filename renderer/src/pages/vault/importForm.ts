/**
 * The import dialog without a DOM: the column mapping (from the preview's suggestion), the
 * `vault.import` request, and the line numbers of the import report.
 */
import type { Split } from '../../../../electron/shared/api/vault';
import type { ImportPreview, ImportRequest, RandomSplit } from '../../../../electron/shared/api/vaultFiles';

export const MAPPED_FIELDS = ['text', 'label', 'subject', 'split', 'output'] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];
/** Column per field; "" for not mapped. */
export type MappingState = Record<MappedField, string>;

export interface ImportOptions {
  split: Split;
  onBadRow: 'skip' | 'abort';
  /** Split rows without a split value at random (instead of `split`); absent or off: all go to `split`. */
  random?: RandomSplitForm;
}

/** The random-split fields as typed: percentages and an optional seed. */
export interface RandomSplitForm {
  on: boolean;
  private: string;
  public: string;
  heldOut: string;
  seed: string;
}

export const initialRandomSplit: RandomSplitForm = { on: false, private: '80', public: '10', heldOut: '10', seed: '' };

/**
 * The `randomSplit` of the request from the form, or why it is invalid: each share a number
 * from 0 to 100, together 100 %. Without a seed the server draws the split from the CSPRNG.
 */
export function randomSplitFromForm(form: RandomSplitForm): { value: RandomSplit } | { error: string } {
  const shares = [form.private, form.public, form.heldOut].map((v) => (v.trim() === '' ? Number.NaN : Number(v)));
  if (shares.some((n) => !Number.isFinite(n) || n < 0 || n > 100)) return { error: 'Each share is a percentage from 0 to 100.' };
  const total = shares.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 100) > 1e-6) return { error: `The shares add up to ${Number(total.toFixed(6))} %, not 100 %.` };
  const [, pub, held] = shares.map((n) => n / 100) as [number, number, number];
  // Rounding of n/100 may leave the sum a hair off 1: the private share takes the remainder.
  const value: RandomSplit = { private: Math.min(1, Math.max(0, 1 - pub - held)), public: pub, heldOut: held };
  const seed = form.seed.trim();
  return { value: seed === '' ? value : { ...value, seed } };
}

/** Why the options cannot be sent (a random split that does not add up), or null. */
export function importOptionsError(options: ImportOptions): string | null {
  if (!options.random?.on) return null;
  const result = randomSplitFromForm(options.random);
  return 'error' in result ? result.error : null;
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
    ...randomSplitPart(options),
  };
}

function randomSplitPart(options: ImportOptions): { randomSplit?: RandomSplit } {
  if (!options.random?.on) return {};
  const result = randomSplitFromForm(options.random);
  if ('error' in result) throw new Error(result.error);
  return { randomSplit: result.value };
}

/** "3, 7, 12 and 45 more" — the first few of a list of line numbers. */
export function lineList(lines: readonly number[], count: number, shown = 10): string {
  const head = lines.slice(0, shown).join(', ');
  return count > Math.min(lines.length, shown) ? `${head} and ${(count - Math.min(lines.length, shown)).toLocaleString('en-US')} more` : head;
}
