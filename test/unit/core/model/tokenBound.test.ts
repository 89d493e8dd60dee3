/** Token bounds without a tokenizer: every suffix returned fits its bound and is as long as that allows. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tailWithin, tokenBound } from '../../../../core/model/tokenBound';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('tokenBound', () => {
  it('counts ASCII characters, UTF-8 bytes otherwise, and NFD/NFKC expansions', () => {
    expect(tokenBound('Label: ham')).toBe(10);
    // 8 bytes composed, 10 after NFD (each é becomes e + U+0301, 3 bytes), which a tokenizer may see.
    expect(tokenBound('Résumé')).toBe(10);
    expect(tokenBound('😀')).toBe(4);
    // U+FDFA is 3 bytes but NFKC makes it 18 characters (33 bytes) a tokenizer may see.
    expect(tokenBound('\uFDFA')).toBe(33);
  });

  it('bounds the text under every normaliser: NFC lengthens what NFKC shortens', () => {
    // U+0958 is a composition exclusion: NFC and NFD both decompose it (3 -> 6 bytes); U+338F
    // becomes "kg" under NFKC (3 -> 2 bytes). Raw 600 bytes, NFKC 800, NFC 900: a byte-level
    // BPE normalising with NFC (Qwen2) may emit 900 tokens.
    const text = '\u338F\u0958'.repeat(100);
    expect(tokenBound(text)).toBe(900);
    for (const char of ['\u0958', '\u2ADC', '\u{1D15E}', '\u0F73'])
      expect(tokenBound(char)).toBe(bytes(char.normalize('NFC')));
  });

  it('is at least the UTF-8 bytes of the text and of each normal form (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const bound = tokenBound(text);
        expect(bound).toBeGreaterThanOrEqual(bytes(text));
        for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD']) expect(bound).toBeGreaterThanOrEqual(bytes(text.normalize(form)));
      }),
      { seed: 20261126, numRuns: 400 },
    );
  });
});

describe('tailWithin', () => {
  it('keeps the last characters of ASCII text', () => {
    expect(tailWithin('abcdefgh', 3)).toBe('fgh');
    expect(tailWithin('abc', 3)).toBe('abc');
    expect(tailWithin('abc', 0)).toBe('');
  });

  it('never splits a code point, and drops a character whose NFKC form does not fit', () => {
    expect(tailWithin('a😀b', 5)).toBe('😀b');
    expect(tailWithin('a😀b', 4)).toBe('b');
    expect(tailWithin('x\uFDFAyz', 20)).toBe('yz');
  });

  it('returns a suffix within the bound that one more code point would exceed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.nat(80), (text, max) => {
        const tail = tailWithin(text, max);
        expect(text.endsWith(tail)).toBe(true);
        expect(tokenBound(tail)).toBeLessThanOrEqual(max);
        expect(bytes(tail)).toBeLessThanOrEqual(max);
        const points = Array.from(text);
        const kept = Array.from(tail).length;
        if (kept < points.length) expect(tokenBound(points.slice(points.length - kept - 1).join(''))).toBeGreaterThan(max);
      }),
      { seed: 20261123, numRuns: 400 },
    );
  });
});
