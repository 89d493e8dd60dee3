/**
 * CSV (RFC 4180) through `csv-parse`, streamed: quoted fields with delimiters, quotes and
 * line breaks, CRLF / LF / CR line ends (mixed too), a UTF-8 BOM, a header row naming the
 * columns. Quotes inside unquoted fields are kept as text. Each row is numbered by the line
 * it starts on. A row with more fields than the header is a bad row (an unquoted delimiter
 * would shift the columns); missing trailing fields are empty. A CSV error — a quote left
 * open at the end, a record longer than MAX_RECORD_CHARS (an unclosed quote, typically) —
 * is reported at the line where its row starts and ends the reading of the file there.
 */
import { parse as parseStream, type CsvError, type InfoRecord, type Options, type Parser } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type { Delimiter } from '../../../shared/api/vaultFiles';
import { LineTracker } from './lineTracker';
import { badRow, ImportError, MAX_RECORD_CHARS, type FormatReader, type SourceItem } from './importTypes';

const options = (delimiter: Delimiter): Options => ({
  delimiter,
  bom: true,
  encoding: 'utf8',
  record_delimiter: ['\r\n', '\n', '\r'],
  relax_quotes: true,
  relax_column_count: true,
  skip_empty_lines: true,
  skip_records_with_error: true,
  max_record_size: MAX_RECORD_CHARS,
});

const FATAL: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field opened on this line is never closed (a stray quote?): the file ends inside it',
  CSV_MAX_RECORD_SIZE: `a row is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters (an unclosed quote?); the rest of the file was not read`,
};

/** The header row (column names, trimmed) from the start of a file. */
export function csvHeader(head: string, delimiter: Delimiter): string[] {
  let rows: string[][];
  try {
    rows = parseSync(head, { ...options(delimiter), to: 1, skip_records_with_error: false }) as string[][];
  } catch {
    throw new ImportError('the CSV header row cannot be read');
  }
  if (rows.length === 0) throw new ImportError('the file is empty: a CSV file needs a header row naming its columns');
  return rows[0].map((name) => name.trim());
}

const write = (stream: NodeJS.WritableStream, chunk: Buffer) =>
  new Promise<Error | null | undefined>((resolve) => stream.write(chunk, (error) => resolve(error)));

export function csvReader(delimiter: Delimiter): FormatReader {
  return async function* (chunks) {
    const queue: SourceItem[] = [];
    let header: string[] | null = null;
    const lines = new LineTracker();
    /** Byte offset where the previous row ended: the next one starts after it (and any empty lines). */
    let lastEnd = 0;
    let stopped = false;
    const startLine = (endOffset: number): number => {
      const line = lines.firstContentLine(lastEnd);
      lastEnd = endOffset;
      return line;
    };
    const onRecord = (fields: string[], line: number) => {
      if (stopped) return;
      if (!header) header = fields.map((f) => f.trim());
      else if (fields.length > header.length) queue.push(badRow(line, 'malformed', `the row has ${fields.length} fields but the header has ${header.length} (an unquoted delimiter?)`));
      else queue.push({ line, values: Object.fromEntries(fields.map((value, k) => [header![k], value])) });
    };
    const onError = (code: string) => {
      if (stopped) return;
      stopped = true;
      queue.push({ ...badRow(startLine(lastEnd), 'malformed', FATAL[code] ?? `the row is not valid CSV (${code}); the rest of the file was not read`), fatal: true });
    };
    const parser: Parser = parseStream({
      ...options(delimiter),
      on_record: (fields: string[], info: InfoRecord): null => (onRecord(fields, startLine(info.bytes)), null),
      on_skip: (error: CsvError | undefined) => void onError(error?.code ?? 'CSV_ERROR'),
    });
    parser.on('error', () => undefined);
    try {
      for await (const chunk of chunks) {
        lines.add(chunk);
        const error = await write(parser, chunk);
        if (error) onError((error as CsvError).code ?? 'CSV_ERROR');
        yield* queue.splice(0);
        if (stopped || error) return;
      }
      await new Promise<void>((resolve) => parser.end(resolve));
      yield* queue.splice(0);
    } finally {
      parser.destroy();
    }
  };
}
