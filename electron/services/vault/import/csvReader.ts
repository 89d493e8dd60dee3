/**
 * CSV (RFC 4180) through `csv-parse`, streamed: quoted fields with delimiters, quotes and
 * line breaks, CRLF / LF / CR line ends (mixed too), a UTF-8 BOM, a header row naming the
 * columns. Quotes inside unquoted fields are kept as text. Each row is numbered by the line
 * it starts on. A row with more fields than the header is a bad row (an unquoted delimiter
 * would shift the columns); missing trailing fields are empty. A CSV error — a quote left
 * open at the end, a record longer than MAX_RECORD_CHARS (an unclosed quote, typically) —
 * is reported at the line where its row starts and ends the reading of the file there.
 * A row read across lines whose quoted field is closed by a quote in the middle of a field
 * (a quote left open swallowed the next line, delimiters and all) is a bad row naming its
 * lines: relaxed quoting would otherwise merge two rows silently.
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

/**
 * Whether a row spans lines: csv-parse keeps every line break inside a row in a field (only
 * quoted fields hold them), so only then is the row's text needed.
 */
const spansLines = (fields: readonly string[]): boolean => fields.some((f) => f.includes('\n') || f.includes('\r'));

/** Lines a raw record spans beyond its first (its final line end not counted). */
const extraLines = (raw: string): number => (raw.replace(/(\r\n|\n|\r)$/, '').match(/\r\n|\n|\r/g) ?? []).length;

/** A multi-line record that strict RFC 4180 reading rejects for a quote closing inside a field: rows merged by an open quote. */
function mergedByOpenQuote(raw: string, delimiter: Delimiter): boolean {
  try {
    parseSync(raw, { delimiter, relax_column_count: true });
    return false;
  } catch (error) {
    return (error as CsvError).code === 'CSV_INVALID_CLOSING_QUOTE';
  }
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
    const onRecord = (fields: string[], endOffset: number) => {
      if (stopped) return;
      const line = lines.firstContentLine(lastEnd);
      const raw = header && spansLines(fields) ? lines.bytesTo(endOffset).toString('utf8') : '';
      lastEnd = endOffset;
      const spans = extraLines(raw);
      if (!header) header = fields.map((f) => f.trim());
      else if (spans > 0 && mergedByOpenQuote(raw, delimiter)) {
        queue.push(badRow(line, 'malformed', `lines ${line}–${line + spans} were read as one row: a quote opened on line ${line} is closed inside a field on line ${line + spans} (a quote left open?); none of them was imported`));
      } else if (fields.length > header.length) queue.push(badRow(line, 'malformed', `the row has ${fields.length} fields but the header has ${header.length} (an unquoted delimiter?)`));
      else queue.push({ line, values: Object.fromEntries(fields.map((value, k) => [header![k], value])) });
    };
    const onError = (code: string) => {
      if (stopped) return;
      stopped = true;
      queue.push({ ...badRow(lines.firstContentLine(lastEnd), 'malformed', FATAL[code] ?? `the row is not valid CSV (${code}); the rest of the file was not read`), fatal: true });
    };
    const streamOptions: Options = {
      ...options(delimiter),
      on_record: (fields: unknown, info: InfoRecord): null => (onRecord(fields as string[], info.bytes), null),
      on_skip: (error: CsvError | undefined) => void onError(error?.code ?? 'CSV_ERROR'),
    };
    const parser: Parser = parseStream(streamOptions);
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
