/**
 * Line-based formats: plain text (one example per line) and JSONL (one JSON object — or a
 * JSON string, taken as the text — per line). Lines are numbered from 1; blank lines are
 * skipped; a line longer than MAX_RECORD_CHARS is reported without being held in memory.
 */
import { decodeUtf8 } from './encoding';
import { badRow, MAX_RECORD_CHARS, type FormatReader, type SourceItem } from './importTypes';

const tooLong = (line: number) => badRow(line, 'malformed', `the line is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters`);

/** Lines of decoded text (a trailing CR dropped); `text` is null for an over-long line. */
export async function* splitLines(texts: AsyncIterable<string>): AsyncGenerator<{ line: number; text: string | null }> {
  let parts: string[] = [];
  let length = 0;
  let line = 1;
  const append = (piece: string) => {
    length += piece.length;
    if (length <= MAX_RECORD_CHARS) parts.push(piece);
    else parts = [];
  };
  const take = () => {
    const text = length > MAX_RECORD_CHARS ? null : parts.join('').replace(/\r$/, '');
    parts = [];
    length = 0;
    return { line: line++, text };
  };
  for await (const chunk of texts) {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      append(chunk.slice(start, nl));
      yield take();
      start = nl + 1;
    }
    append(chunk.slice(start));
  }
  if (length > 0) yield take();
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Valid JSON text with every number outside strings turned into a string of its digits as
 * written: a field holds `1e999999` or a 30-digit id as the file wrote it, never "Infinity"
 * or a rounded double.
 */
function numbersAsWritten(source: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (inString) {
      if (c === '\\') {
        out += c + source[++i];
        continue;
      }
      if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(source)![0];
      out += `"${token}"`;
      i += token.length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

/** A parsed JSON value as a row: objects by field, strings as the text; anything else is a bad row. */
export function jsonItem(line: number, source: string): SourceItem {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return badRow(line, 'malformed', 'invalid JSON');
  }
  if (typeof value === 'string') return { line, values: value };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const hasNumber = Object.values(value).some((v) => typeof v === 'number');
    return { line, values: (hasNumber ? JSON.parse(numbersAsWritten(source)) : value) as Record<string, unknown> };
  }
  return badRow(line, 'malformed', 'expected a JSON object (or a string)');
}

export const txtReader: FormatReader = async function* (chunks) {
  for await (const { line, text } of splitLines(decodeUtf8(chunks))) {
    if (text === null) yield tooLong(line);
    else if (text.trim() !== '') yield { line, values: text };
  }
};

export const jsonlReader: FormatReader = async function* (chunks) {
  for await (const { line, text } of splitLines(decodeUtf8(chunks))) {
    if (text === null) yield tooLong(line);
    else if (text.trim() !== '') yield jsonItem(line, text);
  }
};
