/**
 * Property-based fuzzing (fast-check, fixed seed) of the CSV, JSONL and JSON-array readers
 * with the mapping: generated files must read back exactly, row by row with the right line
 * numbers, in any chunking; arbitrary bytes must never crash a reader, and every item —
 * bad rows included — must carry a line number inside the file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvReader } from '../../../../electron/services/vault/import/csvReader';
import { ImportError, type SourceItem } from '../../../../electron/services/vault/import/importTypes';
import { jsonArrayReader } from '../../../../electron/services/vault/import/jsonArrayReader';
import { jsonlReader } from '../../../../electron/services/vault/import/lineReaders';
import { mapRow } from '../../../../electron/services/vault/import/mapping';
import type { Delimiter } from '../../../../electron/shared/api/vaultFiles';
import { readAll, summary } from './importFixtures';

const settings = { seed: 20240611, numRuns: 300 };
const rules = { mapping: { text: 'text', label: 'label', split: 'split' }, split: 'private' as const, labels: ['spam', 'ham'] };

/** Line breaks in a string: CRLF, LF and a lone CR count once each. */
const breaks = (s: string) => (s.match(/\r\n|\r|\n/g) ?? []).length;

const nasty = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', 'é', '東', '🎉', ',', ';', '\t', '|', '"', '\n', '\r', '\r\n', '{', ']'), maxLength: 12 });

function csvField(value: string, delimiter: Delimiter, force: boolean): string {
  const quote = force || value.includes(delimiter) || /["\r\n]/.test(value);
  return quote ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Every item maps without throwing, and lines are non-decreasing and inside the file. */
function checkItems(items: SourceItem[], input: string): void {
  let previous = 1;
  for (const item of items) {
    expect(Number.isInteger(item.line)).toBe(true);
    expect(item.line).toBeGreaterThanOrEqual(previous);
    expect(item.line).toBeLessThanOrEqual(breaks(input) + 1);
    previous = item.line;
    if ('values' in item) mapRow(item.values, rules);
    else expect(item.bad.line).toBe(item.line);
  }
}

const rawInput = fc.oneof(
  fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes)),
  nasty.map((s) => Buffer.from(s)),
  fc.array(nasty, { maxLength: 30 }).map((parts) => Buffer.from(parts.join(''))),
);

describe('CSV importer fuzzing', () => {
  it('reads generated RFC 4180 files back exactly, with each row\'s first line, in any chunking', async () => {
    const row = fc.record({ text: nasty, label: nasty, forceQuote: fc.boolean(), eol: fc.constantFrom('\n', '\r\n', '\r') });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 12 }), fc.constantFrom<Delimiter>(',', ';', '\t', '|'), fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 40 }), async (rows, delimiter, bom, finalEol, chunk) => {
        let file = `${bom ? '\uFEFF' : ''}text${delimiter}label\r\n`;
        const expected: string[] = [];
        rows.forEach((r, i) => {
          expected.push(`${breaks(file) + 1}: ${JSON.stringify({ text: r.text, label: r.label })}`);
          file += [r.text, r.label].map((v) => csvField(v, delimiter, r.forceQuote)).join(delimiter) + (i < rows.length - 1 || finalEol ? r.eol : '');
        });
        expect(summary(await readAll(csvReader(delimiter), file, chunk))).toEqual(expected);
      }),
      settings,
    );
  });

  it('never crashes on arbitrary bytes and numbers every row', async () => {
    await fc.assert(
      fc.asyncProperty(rawInput, fc.constantFrom<Delimiter>(',', ';'), fc.integer({ min: 1, max: 64 }), async (bytes, delimiter, chunk) => {
        checkItems(await readAll(csvReader(delimiter), bytes, chunk), bytes.toString('utf8'));
      }),
      settings,
    );
  });
});

describe('JSONL importer fuzzing', () => {
  const line = fc.oneof(
    fc.record({ text: nasty, label: fc.constantFrom('spam', 'ham', 'other') }).map((o) => ({ json: JSON.stringify(o), expect: JSON.stringify(o) })),
    nasty.map((s) => ({ json: JSON.stringify(s), expect: JSON.stringify(s) })),
    fc.string({ maxLength: 10 }).map((s) => ({ json: `#${s.replace(/[\r\n]/g, '')}`, expect: '!malformed' })),
    fc.constantFrom('', '  ', '\t').map((blank) => ({ json: blank, expect: null })),
  );

  it('reads generated files back with the right line numbers, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 15 }), fc.integer({ min: 1, max: 40 }), async (lines, chunk) => {
        const file = lines.map(([l, eol]) => l.json + eol).join('');
        const expected = lines.flatMap(([l], i) => (l.expect === null ? [] : [`${i + 1}: ${l.expect === '!malformed' ? '!malformed' : l.expect}`]));
        expect(summary(await readAll(jsonlReader, file, chunk))).toEqual(expected);
      }),
      settings,
    );
  });

  it('never crashes on arbitrary bytes and numbers every row', async () => {
    await fc.assert(
      fc.asyncProperty(rawInput, fc.integer({ min: 1, max: 64 }), async (bytes, chunk) => {
        checkItems(await readAll(jsonlReader, bytes, chunk), bytes.toString('utf8'));
      }),
      settings,
    );
  });
});

describe('JSON array importer fuzzing', () => {
  const element = fc.oneof(
    fc.record({ text: nasty, label: fc.constantFrom('spam', 'ham') }),
    nasty,
    fc.stringMatching(/^[a-z0-9]{1,8}$/).map((s) => ({ garbage: `#${s}` })),
  );

  it('reads generated arrays back element by element with their first lines, in any chunking', async () => {
    const spacing = fc.constantFrom('', ' ', '\n', '\n  ', ' \n\n');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(element, fc.constantFrom(0, 2), spacing), { maxLength: 10 }), fc.integer({ min: 1, max: 40 }), async (elements, chunk) => {
        let file = '[';
        const expected: string[] = [];
        elements.forEach(([el, indent, space], i) => {
          file += space;
          expected.push(`${breaks(file) + 1}: ${typeof el === 'object' && 'garbage' in el ? '!malformed' : JSON.stringify(el)}`);
          file += (typeof el === 'object' && 'garbage' in el ? el.garbage : JSON.stringify(el, null, indent)) + (i < elements.length - 1 ? ',' : '');
        });
        file += '\n]\n';
        expect(summary(await readAll(jsonArrayReader, file, chunk))).toEqual(expected);
      }),
      settings,
    );
  });

  it('never crashes on arbitrary input: refuses a non-array with an ImportError, else numbers every row', async () => {
    const arrayish = rawInput.map((bytes) => Buffer.concat([Buffer.from('['), bytes]));
    await fc.assert(
      fc.asyncProperty(fc.oneof(rawInput, arrayish), fc.integer({ min: 1, max: 64 }), async (bytes, chunk) => {
        try {
          checkItems(await readAll(jsonArrayReader, bytes, chunk), bytes.toString('utf8'));
        } catch (error) {
          expect(error).toBeInstanceOf(ImportError);
        }
      }),
      settings,
    );
  });
});
