/**
 * Duplicate detection's normal form: the fast path (no whitespace to collapse) must give the
 * same text as NFKC + case fold + collapsing every whitespace run, for any string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, normaliseText } from '../../../../electron/services/vault/normalise';

const reference = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const spaces = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u200b'];

describe('normaliseText', () => {
  it('equals NFKC + lower case + collapsed whitespace (property)', () => {
    const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.constantFrom(...spaces), fc.constantFrom('Ａ', 'ﬁ', 'Ⅻ', 'İ', 'ẞ'));
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (parts) => normaliseText(parts.join('')) === reference(parts.join(''))), { numRuns: 2000 });
  });

  it('collapses runs and odd spaces, and hashes equal texts equally', () => {
    expect(normaliseText('  Hello\u00a0 World\t\n!  ')).toBe('hello world !');
    expect(normaliseText('Ａｂｃ  def')).toBe('abc def');
    expect(contentHash('Hello  world')).toBe(contentHash('hello world'));
    expect(contentHash('Hello world')).not.toBe(contentHash('Hello  worlds'));
  });
});
