/**
 * Sniffing a file before import: its format (extension first, then the first
 * non-blank character and the shape of the lines), the CSV delimiter (tab for .tsv, else
 * the candidate that splits the first records into the same number of fields most
 * consistently, quotes respected), and a suggested column mapping from common column names.
 */
import { extname } from 'node:path';
import type { ColumnMapping, Delimiter, ImportFormat } from '../../../shared/api/vaultFiles';

const CANDIDATES: readonly Delimiter[] = [',', '\t', ';', '|'];
const SAMPLE_RECORDS = 50;
const TAB_SEPARATED = new Set(['.tsv', '.tab']);

/** Delimiter counts outside quotes, per record, for each candidate. */
function delimiterCounts(sample: string): number[][] {
  const counts: number[][] = CANDIDATES.map(() => []);
  let current = CANDIDATES.map(() => 0);
  let quoted = false;
  let empty = true;
  const endRecord = () => {
    if (!empty) current.forEach((n, k) => counts[k].push(n));
    current = CANDIDATES.map(() => 0);
    empty = true;
  };
  for (let i = 0; i < sample.length && counts[0].length < SAMPLE_RECORDS; i++) {
    const c = sample[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) {
      endRecord();
      continue;
    } else if (!quoted) {
      const k = CANDIDATES.indexOf(c as Delimiter);
      if (k >= 0) current[k]++;
    }
    empty = false;
  }
  if (!quoted) endRecord();
  return counts;
}

function mode(values: number[]): number {
  const tally = new Map<number, number>();
  for (const v of values) tally.set(v, (tally.get(v) ?? 0) + 1);
  return [...tally].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
}

/** The most consistent delimiter, with the share of sampled records it splits into its usual number of fields. */
function bestDelimiter(sample: string): { delimiter: Delimiter; consistency: number; records: number } {
  const scored = delimiterCounts(sample).map((counts, k) => {
    const m = mode(counts);
    const consistency = m === 0 ? 0 : counts.filter((n) => n === m).length / counts.length;
    return { delimiter: CANDIDATES[k], consistency, fields: m, records: counts.length };
  });
  scored.sort((a, b) => b.consistency - a.consistency || b.fields - a.fields);
  return scored[0];
}

/** Tab for .tsv / .tab files; otherwise the most consistent candidate in the sample (comma when none is). */
export function detectDelimiter(sample: string, path = ''): Delimiter {
  if (TAB_SEPARATED.has(extname(path).toLowerCase())) return '\t';
  const best = bestDelimiter(sample);
  return best.consistency > 0 ? best.delimiter : ',';
}

const BY_EXTENSION: Record<string, ImportFormat> = { '.csv': 'csv', '.tsv': 'csv', '.tab': 'csv', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.txt': 'txt' };

export function detectFormat(path: string, head: string): ImportFormat {
  const ext = extname(path).toLowerCase();
  const first = head.trimStart()[0];
  if (ext in BY_EXTENSION) return BY_EXTENSION[ext];
  if (first === '[') return 'json';
  if (first === '{') return 'jsonl';
  if (ext === '.json') return 'json';
  const best = bestDelimiter(head);
  return best.records > 1 && best.consistency >= 0.9 ? 'csv' : 'txt';
}

const NAMES: Record<keyof ColumnMapping, string[]> = {
  text: ['text', 'body', 'content', 'message', 'note', 'notes', 'email', 'document', 'sentence', 'input', 'prompt'],
  label: ['label', 'class', 'category', 'target'],
  subject: ['subject_id', 'subjectid', 'subject id', 'patient_id', 'patient id', 'patient', 'user_id', 'user id', 'person_id', 'customer_id', 'customer id', 'customerid', 'client_id', 'account_id', 'employee_id', 'member_id', 'author_id', 'sender_id'],
  split: ['split'],
  output: ['output', 'response', 'answer', 'completion', 'reference'],
};

/** The first column whose name matches a common name for each field. */
export function suggestMapping(columns: readonly string[]): Partial<ColumnMapping> {
  const byName = new Map(columns.map((c) => [c.trim().toLowerCase(), c]));
  const suggestion: Partial<ColumnMapping> = {};
  for (const [field, names] of Object.entries(NAMES) as [keyof ColumnMapping, string[]][]) {
    const found = names.map((n) => byName.get(n)).find((c) => c !== undefined);
    if (found !== undefined) suggestion[field] = found;
  }
  return suggestion;
}
