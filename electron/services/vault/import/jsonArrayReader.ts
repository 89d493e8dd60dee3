/**
 * JSON arrays without loading the file: a scanner splits the top-level array into element
 * texts (tracking strings, escapes, nesting and line numbers across chunk boundaries) and
 * parses one element at a time. An element longer than MAX_RECORD_CHARS is reported without
 * being held in memory. Empty elements and a trailing comma are tolerated.
 */
import { decodeUtf8 } from './encoding';
import { badRow, ImportError, MAX_RECORD_CHARS, type FormatReader, type SourceItem } from './importTypes';
import { jsonItem } from './lineReaders';

const IN_STRING = /["\\\n]/g;
const IN_VALUE = /["[\]{},\n]/g;
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

interface Element {
  line: number;
  parts: string[];
  length: number;
}

export class JsonArraySplitter {
  private state: 'before' | 'inside' | 'after' | 'done' = 'before';
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private element: Element | null = null;
  /** Where the part of the current element not yet kept starts, in the current chunk. */
  private segmentStart = 0;
  private items: SourceItem[] = [];

  /** Scans one chunk of text; returns the items completed in it. */
  push(text: string): SourceItem[] {
    this.segmentStart = 0;
    let i = 0;
    if (this.escaped && text.length > 0) {
      this.escaped = false;
      if (text[0] === '\n') this.line++;
      i = 1;
    }
    while (i < text.length) i = this.element ? this.inValue(text, i) : this.between(text, i);
    if (this.element) this.append(text.slice(this.segmentStart));
    return this.items.splice(0);
  }

  /** Ends the input: an array left open is reported. */
  end(): SourceItem[] {
    if (this.state === 'before') throw new ImportError('the file is empty');
    if (this.state === 'inside') {
      this.items.push({ ...badRow(this.element?.line ?? this.line, 'malformed', 'the JSON array is not closed: the file ends inside it'), fatal: true });
    }
    return this.items.splice(0);
  }

  /** Outside any element: whitespace, the brackets of the array, commas. Returns the next index. */
  private between(text: string, i: number): number {
    const c = text[i];
    if (c === '\n') this.line++;
    if (WHITESPACE.has(c)) return i + 1;
    switch (this.state) {
      case 'before':
        if (c !== '[') throw new ImportError('the file is not a JSON array (for one JSON object per line, use the jsonl format)');
        this.state = 'inside';
        return i + 1;
      case 'inside':
        if (c === ']') this.state = 'after';
        else if (c !== ',') {
          this.element = { line: this.line, parts: [], length: 0 };
          this.depth = 0;
          this.segmentStart = i;
          return i;
        }
        return i + 1;
      case 'after':
        this.items.push(badRow(this.line, 'malformed', 'content after the end of the JSON array is ignored'));
        this.state = 'done';
        return text.length;
      default:
        return text.length;
    }
  }

  /** Inside an element: jumps to the next character that matters. Returns the next index. */
  private inValue(text: string, i: number): number {
    const pattern = this.inString ? IN_STRING : IN_VALUE;
    pattern.lastIndex = i;
    const m = pattern.exec(text);
    if (!m) return text.length;
    const j = m.index;
    const c = text[j];
    if (c === '\n') this.line++;
    else if (this.inString) {
      if (c === '"') this.inString = false;
      else if (j + 1 === text.length) this.escaped = true;
      else {
        if (text[j + 1] === '\n') this.line++;
        return j + 2;
      }
    } else if (c === '"') this.inString = true;
    else if (c === '[' || c === '{') this.depth++;
    else if (this.depth === 0 && (c === ',' || c === ']')) {
      this.finish(text.slice(this.segmentStart, j));
      if (c === ']') this.state = 'after';
    } else if (c !== ',' && this.depth > 0) this.depth--;
    return j + 1;
  }

  private append(piece: string): void {
    const el = this.element!;
    el.length += piece.length;
    if (el.length <= MAX_RECORD_CHARS) el.parts.push(piece);
    else el.parts = [];
  }

  private finish(tail: string): void {
    this.append(tail);
    const el = this.element!;
    this.element = null;
    this.items.push(
      el.length > MAX_RECORD_CHARS
        ? badRow(el.line, 'malformed', `the element is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters`)
        : jsonItem(el.line, el.parts.join('')),
    );
  }
}

export const jsonArrayReader: FormatReader = async function* (chunks) {
  const splitter = new JsonArraySplitter();
  for await (const text of decodeUtf8(chunks)) yield* splitter.push(text);
  yield* splitter.end();
};
