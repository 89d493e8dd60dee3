/** The reference tokenizer: exact round trips (byte fallback), word pieces, token texts. */
import { describe, expect, it } from 'vitest';
import { BYTE_TOKENS, EOS_TOKEN, FIRST_PIECE, ReferenceTokenizer } from '../../../../core/model/reference/tokenizer';
import { referenceLearner } from './referenceFixture';

describe('reference tokenizer', () => {
  const tokenizer = referenceLearner().tokenizer;

  it.each([
    'Hello, world!',
    'Subject: FREE money!!! Click   here\n\nNow.',
    'naïve café — 東京 😀 \u{1F600}\u200d',
    '  leading and trailing spaces  ',
    '\t\ttabs\r\nand CRLF\n',
    '',
  ])('round-trips %j exactly', (text) => {
    const ids = tokenizer.encode(text);
    expect(tokenizer.decode(ids)).toBe(text);
    for (const id of ids) expect(id >= 0 && id < tokenizer.vocabularySize && id !== EOS_TOKEN).toBe(true);
  });

  it('keeps common words whole with their leading space and falls back to bytes', () => {
    const ids = tokenizer.encode(' the money');
    expect(ids.every((id) => id >= FIRST_PIECE)).toBe(true);
    expect(ids.map((id) => tokenizer.tokenText(id))).toEqual([' the', ' money']);
    const emoji = tokenizer.encode('😀');
    expect(emoji.every((id) => id < BYTE_TOKENS)).toBe(true);
    expect(tokenizer.tokenText(emoji[0])).toMatch(/^<0x[0-9A-F]{2}>$/);
  });

  it('builds from any piece list', () => {
    const small = new ReferenceTokenizer(['ab', ' c']);
    expect(small.encode('abab c')).toEqual([FIRST_PIECE, FIRST_PIECE, FIRST_PIECE + 1]);
    expect(small.decode(small.encode('xyz ab'))).toBe('xyz ab');
  });
});
