/** The format readers on nasty inputs, fed in every chunking: CSV, JSONL, JSON arrays, plain text. */
import { describe, expect, it } from 'vitest';
import { csvHeader, csvReader } from '../../../../electron/services/vault/import/csvReader';
import { JsonArraySplitter, jsonArrayReader } from '../../../../electron/services/vault/import/jsonArrayReader';
import { jsonlReader, txtReader } from '../../../../electron/services/vault/import/lineReaders';
import { MAX_RECORD_CHARS } from '../../../../electron/services/vault/import/importTypes';
import { readAll, summary } from './importFixtures';

/** The same items whatever the chunk size (every split point of a short input). */
async function readEveryWay(reader: Parameters<typeof readAll>[0], input: string) {
  const whole = summary(await readAll(reader, input));
  for (const size of [1, 2, 3, 5, 7, 13]) expect(summary(await readAll(reader, input, size))).toEqual(whole);
  return whole;
}

describe('CSV reader', () => {
  it('reads quotes, embedded newlines, CRLF, mixed line ends, a BOM and empty lines, numbering rows by their first line', async () => {
    const csv = '\uFEFFtext,label\r\n"say ""hi"", then\r\nbye",spam\r\n\r\nplain,ham\nsecond\rthird,ham\n"a\nb\nc",\n\nlast,spam';
    expect(await readEveryWay(csvReader(','), csv)).toEqual([
      '2: {"text":"say \\"hi\\", then\\r\\nbye","label":"spam"}',
      '5: {"text":"plain","label":"ham"}',
      '6: {"text":"second"}',
      '7: {"text":"third","label":"ham"}',
      '8: {"text":"a\\nb\\nc","label":""}',
      '12: {"text":"last","label":"spam"}',
    ]);
  });

  it('reports rows with more fields than the header and pads short ones', async () => {
    expect(await readEveryWay(csvReader(';'), 'text;label\na;b;c\nonly\n"x;y";z\n')).toEqual([
      '2: !malformed',
      '3: {"text":"only"}',
      '4: {"text":"x;y","label":"z"}',
    ]);
  });

  it('keeps stray quotes inside unquoted fields as text', async () => {
    expect(summary(await readAll(csvReader(','), 'text\n5" screen\nab"c"d\n'))).toEqual(['2: {"text":"5\\" screen"}', '3: {"text":"ab\\"c\\"d"}']);
  });

  it('reports a quote left open at the line where its row starts and stops there', async () => {
    const items = await readAll(csvReader(','), 'text,label\nok,spam\n"never closed,ham\nmore,spam\n');
    expect(summary(items)).toEqual(['2: {"text":"ok","label":"spam"}', '3: !malformed']);
    expect(items[1]).toMatchObject({ fatal: true, bad: { reason: expect.stringMatching(/never closed/) } });
  });

  it('stops at a record longer than the limit without holding it', async () => {
    const items = await readAll(csvReader(','), `text\nfirst\n"${'x'.repeat(MAX_RECORD_CHARS + 10)}\nnext\n`, 1 << 16);
    expect(summary(items)).toEqual(['2: {"text":"first"}', '3: !malformed']);
    expect(items[1]).toMatchObject({ fatal: true });
  });

  it('judges a row spanning lines by its own lines, not the empty lines before it', async () => {
    // The row's text once began with the empty lines before it: a one-line row after an empty
    // line was taken for rows merged by an open quote, and a merged row's line range overshot.
    expect(await readEveryWay(csvReader(','), 'text,label\n\n""a,ham\n')).toEqual(['3: {"text":"\\"\\"a","label":"ham"}']);
    const merged = await readAll(csvReader(','), 'text,label\n\n\n"open,ham\nnext"x,spam\nlast,ham\n');
    expect(merged.map((i) => ('bad' in i ? `${i.line}: ${i.bad.reason.split(' were read as one row')[0]}` : `${i.line}: ok`))).toEqual(['4: lines 4–5', '6: ok']);
  });

  it('reads the header with tab and pipe delimiters', () => {
    expect(csvHeader('\uFEFF id \tbody\n1\tx\n', '\t')).toEqual(['id', 'body']);
    expect(csvHeader('"a|b"|c\n', '|')).toEqual(['a|b', 'c']);
    expect(() => csvHeader('', ',')).toThrow(/empty/);
  });
});

describe('JSONL and text readers', () => {
  it('JSONL: objects and strings by line; blank lines skipped; invalid lines and non-objects reported', async () => {
    const jsonl = '{"text":"a","label":"spam"}\r\n\n"just text"\n{"text": "x\\ny"}\n{broken\n[1,2]\n  {"n": 3}  ';
    expect(await readEveryWay(jsonlReader, jsonl)).toEqual([
      '1: {"text":"a","label":"spam"}',
      '3: "just text"',
      '4: {"text":"x\\ny"}',
      '5: !malformed',
      '6: !malformed',
      '7: {"n":"3"}', // numbers as written in the file
    ]);
  });

  it('text: one example per line, CRLF dropped, blank lines skipped', async () => {
    expect(await readEveryWay(txtReader, 'first\r\n\n  \nsecond é\nthird')).toEqual(['1: "first"', '4: "second é"', '5: "third"']);
  });

  it('reports an over-long line without keeping it', async () => {
    const items = await readAll(txtReader, `a\n${'y'.repeat(MAX_RECORD_CHARS + 1)}\nb\n`, 4096);
    expect(summary(items)).toEqual(['1: "a"', '2: !malformed', '3: "b"']);
  });
});

describe('JSON array reader', () => {
  it('splits elements across chunks: strings with brackets, commas, escapes and newlines; nested values', async () => {
    const json = '\uFEFF[\n  {"text": "a, [b] {c}", "label": "spam"},\n  "plain \\"quoted\\" \\\\",\n  {"text": "x",\n   "meta": {"tags": ["a", "b"]}}\n , {"text":"last"}\n]\n';
    expect(await readEveryWay(jsonArrayReader, json)).toEqual([
      '2: {"text":"a, [b] {c}","label":"spam"}',
      '3: "plain \\"quoted\\" \\\\"',
      '4: {"text":"x","meta":{"tags":["a","b"]}}',
      '6: {"text":"last"}',
    ]);
  });

  it('reports bad elements and keeps going; tolerates empty elements and a trailing comma', async () => {
    expect(await readEveryWay(jsonArrayReader, '[{"text":"a"},\n{"text": nope},\n42,,\n{"text":"b"},]')).toEqual([
      '1: {"text":"a"}',
      '2: !malformed',
      '3: !malformed',
      '4: {"text":"b"}',
    ]);
  });

  it('reports an unclosed array, trailing content, and refuses a file that is not an array', async () => {
    expect(summary(await readAll(jsonArrayReader, '[{"text":"a"},\n{"text":"b'))).toEqual(['1: {"text":"a"}', '2: !malformed']);
    expect(summary(await readAll(jsonArrayReader, '[{"text":"a"}]\n[{"text":"b"}]'))).toEqual(['1: {"text":"a"}', '2: !malformed']);
    await expect(readAll(jsonArrayReader, '{"text":"a"}')).rejects.toThrow(/not a JSON array/);
    await expect(readAll(jsonArrayReader, '  \n')).rejects.toThrow(/empty/);
  });

  it('does not hold an over-long element', () => {
    const splitter = new JsonArraySplitter();
    const items = [...splitter.push('[{"text":"'), ...splitter.push('z'.repeat(MAX_RECORD_CHARS)), ...splitter.push('"}, "ok"]'), ...splitter.end()];
    expect(summary(items)).toEqual(['1: !malformed', '1: "ok"']);
  });
});
