/**
 * The questions of `veil ask --queries FILE`: one per line for a text file; for a .csv file
 * (header row) or a .jsonl file (one object per line), the values of one column — --column,
 * else the first of "query", "question", "text" present. Blank lines and empty values are
 * skipped. Errors name the file, the line and the column, never the text.
 */
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { readTextFile } from './files';
import { CliError } from './output';

const DEFAULT_COLUMNS = ['query', 'question', 'text'];

function pickColumn(file: string, available: readonly string[], column: string | undefined): string {
  const chosen = column ?? DEFAULT_COLUMNS.find((c) => available.includes(c));
  if (chosen === undefined || !available.includes(chosen)) {
    throw new CliError(`${file}: no column ${column ? `"${column}"` : `named ${DEFAULT_COLUMNS.join(', ')}`} (pass --column NAME)`, 2);
  }
  return chosen;
}

export function readQueries(file: string, column?: string): string[] {
  const text = readTextFile(file, '--queries');
  const ext = extname(file).toLowerCase();
  let queries: string[];
  if (ext === '.csv') {
    let rows: Record<string, string>[];
    try {
      rows = parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
    } catch (error) {
      throw new CliError(`${file}: not a CSV file with a header row (${(error as { code?: string }).code ?? 'parse error'})`, 2);
    }
    const key = pickColumn(file, rows.length > 0 ? Object.keys(rows[0]) : [], column);
    queries = rows.map((r) => r[key] ?? '');
  } else if (ext === '.jsonl' || ext === '.ndjson') {
    const rows = text.split(/\r?\n/).flatMap((line, i) => {
      if (line.trim() === '') return [];
      try {
        const value = JSON.parse(line) as unknown;
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
        return [value as Record<string, unknown>];
      } catch {
        throw new CliError(`${file}: line ${i + 1} is not a JSON object`, 2);
      }
    });
    const key = pickColumn(file, [...new Set(rows.flatMap((r) => Object.keys(r)))], column);
    queries = rows.map((r) => (typeof r[key] === 'string' ? (r[key] as string) : ''));
  } else {
    if (column) throw new CliError('--column applies to .csv and .jsonl files only', 2);
    queries = text.split(/\r?\n/);
  }
  const kept = queries.map((q) => q.trim()).filter((q) => q !== '');
  if (kept.length === 0) throw new CliError(`${file}: no queries found`, 2);
  return kept;
}
