/** Sniffing before import: encodings (UTF-8 split across chunks, Latin-1, UTF-16, binary), formats, delimiters, mapping suggestions. */
import { describe, expect, it } from 'vitest';
import { detectDelimiter, detectFormat, suggestMapping } from '../../../../electron/services/vault/import/detect';
import { completeLength, decodeUtf8, sniffEncoding, Utf8Check } from '../../../../electron/services/vault/import/encoding';
import { chunksOf } from './importFixtures';

const text = 'naïve café — 東京 🎉 end';
const utf8 = Buffer.from(text, 'utf8');

describe('UTF-8 across chunks', () => {
  it('holds back an incomplete trailing sequence only', () => {
    const emoji = Buffer.from('a🎉', 'utf8');
    expect([1, 2, 3, 4, 5].map((n) => completeLength(emoji.subarray(0, n)))).toEqual([1, 1, 1, 1, 5]);
    expect(completeLength(Buffer.from([0x61, 0x80]))).toBe(2);
  });

  it('decodes and validates every chunking of multi-byte text', async () => {
    for (let size = 1; size <= 8; size++) {
      let decoded = '';
      for await (const piece of decodeUtf8(chunksOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), size))) decoded += piece;
      expect(decoded).toBe(text);
      const check = new Utf8Check();
      for await (const chunk of chunksOf(utf8, size)) check.push(chunk);
      check.end();
      expect(check.firstInvalid).toBeNull();
    }
  });

  it('finds the first invalid byte, past genuine U+FFFD characters, and a truncated end', () => {
    const bytes = Buffer.concat([Buffer.from('ok \uFFFD then ', 'utf8'), Buffer.from([0xe9]), Buffer.from(' more')]);
    for (const size of [1, 3, bytes.length]) {
      const check = new Utf8Check();
      for (let i = 0; i < bytes.length; i += size) check.push(bytes.subarray(i, i + size));
      expect(check.firstInvalid).toBe(Buffer.byteLength('ok \uFFFD then '));
    }
    const truncated = new Utf8Check();
    truncated.push(Buffer.from([0x61, 0xe6, 0x9d]));
    expect(truncated.firstInvalid).toBeNull();
    truncated.end();
    expect(truncated.firstInvalid).toBe(1);
  });
});

describe('encoding verdicts', () => {
  it('accepts UTF-8 with or without a BOM', () => {
    expect(sniffEncoding(utf8, true)).toMatchObject({ ok: true, encoding: 'utf-8' });
    expect(sniffEncoding(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), true)).toMatchObject({ ok: true, encoding: 'utf-8-bom' });
    expect(sniffEncoding(utf8.subarray(0, utf8.length - 2), false).ok).toBe(true);
  });

  it('explains Latin-1 / Windows-1252, UTF-16 and binary files', () => {
    const latin1 = Buffer.from('text\ncaf\xe9 cr\xe8me\n', 'latin1');
    expect(sniffEncoding(latin1, true)).toMatchObject({ ok: false, encoding: 'windows-1252', message: expect.stringMatching(/offset 8.*Latin-1 \/ Windows-1252.*re-save it as UTF-8/) });
    expect(sniffEncoding(Buffer.from('\uFEFFtext\nhello\n', 'utf16le'), true)).toMatchObject({ ok: false, encoding: 'utf-16le' });
    expect(sniffEncoding(Buffer.from('text\nhello there\n', 'utf16le'), true)).toMatchObject({ encoding: 'utf-16le' });
    expect(sniffEncoding(Buffer.from('text\nhello there\n', 'utf16le').swap16(), true)).toMatchObject({ encoding: 'utf-16be' });
    expect(sniffEncoding(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46]), true)).toMatchObject({ encoding: 'binary' });
  });
});

describe('format and delimiter detection', () => {
  it('detects the delimiter that splits records consistently, respecting quotes', () => {
    expect(detectDelimiter('text,label\n"a; b; c",spam\nd,ham\n')).toBe(',');
    expect(detectDelimiter('text;label\n"hello, world";spam\nfoo, bar, baz;ham\n')).toBe(';');
    expect(detectDelimiter('text\tlabel\nhello, world\tspam\n')).toBe('\t');
    expect(detectDelimiter('text|label|split\na|b|public\n"x\n|y"|c|private\n')).toBe('|');
    expect(detectDelimiter('just one column\nof text\n')).toBe(',');
    expect(detectDelimiter('a,b\nc,d\n', '/d/x.TSV')).toBe('\t');
  });

  it('detects the format from the extension, then the content', () => {
    expect(detectFormat('/d/a.CSV', 'anything')).toBe('csv');
    expect(detectFormat('/d/a.tsv', 'a\tb')).toBe('csv');
    expect(detectFormat('/d/a.ndjson', '{}')).toBe('jsonl');
    expect(detectFormat('/d/a.json', '  [ {"text": 1} ]')).toBe('json');
    expect(detectFormat('/d/a.json', '{"text": 1}\n{"text": 2}')).toBe('jsonl');
    expect(detectFormat('/d/a.txt', 'a,b\nc,d')).toBe('txt');
    expect(detectFormat('/d/export', 'text;label\na;b\nc;d\n')).toBe('csv');
    expect(detectFormat('/d/notes', 'one note, with a comma\nanother note\n')).toBe('txt');
  });

  it('suggests a mapping from common column names', () => {
    expect(suggestMapping(['ID', 'Body', 'Category', 'patient_id', 'Split', 'Subject'])).toEqual({ text: 'Body', label: 'Category', subject: 'patient_id', split: 'Split' });
    expect(suggestMapping(['a', 'b'])).toEqual({});
  });
});
