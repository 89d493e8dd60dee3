/**
 * The column mapping: turns one row read from a file into a new record, or says why the
 * row is bad. Text is required and kept as written; labels must be in the dataset's public
 * label set; the split comes from a split column (private / public / held-out, any case,
 * "held_out" and "heldout" accepted; empty = the default) or is the default for every row.
 * Reasons name columns and limits, never the row's content.
 */
import type { NewRecord, Split } from '../../../shared/api/vault';
import type { BadRow, ColumnMapping } from '../../../shared/api/vaultFiles';
import { REPLACEMENT } from './encoding';
import { ImportError, MAX_TEXT_CHARS, type SourceValues } from './importTypes';

const MAX_SUBJECT_CHARS = 200;
const SPLITS: readonly Split[] = ['private', 'public', 'held-out'];

export interface MappingRules {
  mapping: ColumnMapping;
  /** Split of rows without a split column or with an empty split value. */
  split: Split;
  /** The dataset's public label set. */
  labels: readonly string[];
  /** Draws the split of a row with no split value (a random split); `split` otherwise. */
  drawSplit?: (subject: string | undefined) => Split;
}

/**
 * A draw of private / public / held-out in the given proportions, from `random` (CSPRNG or
 * seeded). A row with a subject id takes its subject's draw: one subject's records never land
 * in both the private and the public split within an import (the public split has no privacy).
 */
export function splitDrawer(proportions: { private: number; public: number; heldOut: number }, random: { nextFloat(): number }): (subject: string | undefined) => Split {
  const draw = (): Split => {
    const u = random.nextFloat();
    if (u < proportions.private) return 'private';
    return u < proportions.private + proportions.public ? 'public' : 'held-out';
  };
  const bySubject = new Map<string, Split>();
  return (subject) => {
    if (!subject) return draw();
    const known = bySubject.get(subject);
    if (known) return known;
    const split = draw();
    bySubject.set(subject, split);
    return split;
  };
}

type Problem = Pick<BadRow, 'code' | 'reason'>;
class RowProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.reason);
  }
}
const fail = (code: BadRow['code'], reason: string): never => {
  throw new RowProblem({ code, reason });
};

/** A field as text: absent, null and blank are undefined; numbers and booleans are written out. */
function field(values: Readonly<Record<string, unknown>>, column: string | undefined): string | undefined {
  if (column === undefined || !Object.hasOwn(values, column)) return undefined;
  const value = values[column];
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object') return fail('invalid-field', `field "${column}" is not text`);
  const text = String(value);
  return text.trim() === '' ? undefined : text;
}

function checkLength(what: string, value: string | undefined, max: number): void {
  if (value !== undefined && value.length > max) {
    fail(what === 'text' || what === 'output' ? 'text-too-long' : 'invalid-field', `the ${what} has ${value.length.toLocaleString('en')} characters; the limit is ${max.toLocaleString('en')}`);
  }
  if (value?.includes(REPLACEMENT)) fail('invalid-utf8', `the ${what} holds undecodable bytes (not valid UTF-8, shown as U+FFFD)`);
}

function splitOf(raw: string | undefined, fallback: Split | ((subject: string | undefined) => Split), subject: string | undefined): Split {
  if (raw === undefined) return typeof fallback === 'function' ? fallback(subject) : fallback;
  const split = raw.trim().toLowerCase().replace(/[\s_]+/g, '-').replace(/^heldout$/, 'held-out');
  return SPLITS.includes(split as Split) ? (split as Split) : fail('invalid-split', 'the split must be private, public or held-out');
}

function toRecord(source: SourceValues, rules: MappingRules): NewRecord {
  const values = typeof source === 'string' ? { [rules.mapping.text]: source } : source;
  const { mapping } = rules;
  const text = field(values, mapping.text);
  if (text === undefined) fail('missing-text', `no text in "${mapping.text}"`);
  const output = field(values, mapping.output);
  const subject = field(values, mapping.subject)?.trim();
  checkLength('text', text, MAX_TEXT_CHARS);
  checkLength('output', output, MAX_TEXT_CHARS);
  checkLength('subject id', subject, MAX_SUBJECT_CHARS);
  const label = field(values, mapping.label)?.trim();
  if (label !== undefined && !rules.labels.includes(label)) {
    fail('label-not-in-set', `the label is not in the dataset's label set (${rules.labels.join(', ') || 'empty'})`);
  }
  return { text: text!, label, output, subject, split: splitOf(field(values, mapping.split), rules.drawSplit ?? rules.split, subject), tags: [] };
}

/** The record for a row, or the problem that makes it a bad row. */
export function mapRow(source: SourceValues, rules: MappingRules): NewRecord | Problem {
  try {
    return toRecord(source, rules);
  } catch (error) {
    if (error instanceof RowProblem) return error.problem;
    throw error;
  }
}

export const isProblem = (row: NewRecord | Problem): row is Problem => 'code' in row;

/**
 * Whether a header cell looks like a field name (text, label, Customer ID, subj_1): short,
 * at most three words of letters, digits, '_', '-' or '.', not a number. Anything else may
 * be a record's content (a file without a header makes its first row the header) and is
 * never quoted in a message.
 */
export const looksLikeFieldName = (cell: string): boolean =>
  cell.length <= 32 && /^[\p{L}_][\p{L}\p{N}_.-]*(?: [\p{L}\p{N}_.-]+){0,2}$/u.test(cell.trim());

/** The header named for a message: its names when all look like field names, else that the first row looks like data. */
function headerDescription(columns: readonly string[]): string {
  if (!columns.every(looksLikeFieldName)) return `the first row looks like data, not a header: a CSV file must start with a row naming its ${columns.length} columns`;
  return `the file's header has ${columns.slice(0, 12).map((c) => `"${c}"`).join(', ')}${columns.length > 12 ? ', …' : ''}`;
}

/** Checks a mapping against the dataset and, for CSV, the header; throws an ImportError naming what is wrong. */
export function checkMapping(mapping: ColumnMapping, task: 'classification' | 'generation', columns: readonly string[] | null): void {
  if (task === 'generation' && mapping.label !== undefined) throw new ImportError('a generation dataset has no labels: map an output column instead of a label column');
  if (columns === null) return;
  for (const [role, column] of Object.entries(mapping)) {
    if (column === undefined) continue;
    const found = columns.filter((c) => c === column).length;
    if (found === 0) throw new ImportError(`the ${role} column "${column}" is not in the file's header; ${headerDescription(columns)}`);
    if (found > 1) throw new ImportError(`the header has ${found} columns named "${column}"`);
  }
}
