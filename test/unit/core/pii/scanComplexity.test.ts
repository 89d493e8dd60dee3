/**
 * The PII scan runs synchronously on the service's event loop over records of up to 100,000
 * characters, so every detector must stay (near) linear on adversarial text: long runs that
 * almost match (no "@", no valid end) once made the IPv6 pattern cubic and the e-mail pattern
 * quadratic, and tens of thousands of findings made the overlap check quadratic. Detection is
 * unchanged: positive examples below, and the rewritten patterns agree with the previous ones
 * (cheap on short text) on random short strings.
 */
import { isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectors } from '../../../../core/pii/detectors';
import { nameDetector } from '../../../../core/pii/names';
import { scanPii } from '../../../../core/pii/scan';
import type { PiiFinding } from '../../../../core/pii/types';

const firstNames = new Set(['Alice', 'Bob', 'Maria']);
/**
 * A guard against catastrophic backtracking, not a speed test: a linear scan of 100,000
 * characters takes milliseconds (≈ 0.5 s on a 2-core runner at load 24), the super-linear
 * patterns this file caught took minutes to hours. 20 s leaves a loaded machine room.
 */
const BOUND_MS = 20_000;
/** `unit` repeated to `n` characters, then `tail`. */
const rep = (unit: string, n: number, tail = '') => unit.repeat(Math.ceil(n / unit.length)).slice(0, n - tail.length) + tail;

/**
 * Scans at growing sizes up to 100,000 characters, so a super-linear pattern fails at a size
 * it can finish (seconds) instead of hanging the run for hours at the largest.
 */
function expectFast(make: (n: number) => string): void {
  for (const n of [1_000, 4_000, 16_000, 100_000]) {
    const text = make(n);
    const t0 = performance.now();
    scanPii(text, { firstNames });
    expect(performance.now() - t0, `${text.length} characters`).toBeLessThan(BOUND_MS);
  }
}

describe('scanPii on adversarial 100,000-character records', () => {
  it.each<[string, (n: number) => string]>([
    // IPv6: long hex-and-colon runs that end badly, and many tiny valid ones.
    ["'1:'… then 'g'", (n) => rep('1:', n, 'g')],
    ["' ' then '1:'… then 'g'", (n) => ' ' + rep('1:', n - 1, 'g')],
    ["' ' then ':'… then 'g'", (n) => ' ' + rep(':', n - 1, 'g')],
    ["' ' then 'a:'… then '.'", (n) => ' ' + rep('a:', n - 1, '.')],
    ["'dead:beef:'…", (n) => rep('dead:beef:', n)],
    ["':: '… (tens of thousands of findings)", (n) => rep(':: ', n)],
    ["'ff::ff '…", (n) => rep('ff::ff ', n)],
    // E-mail: local-part runs with no "@", and domains that never end in a TLD.
    ["'a'…", (n) => rep('a', n)],
    ["'a'… then '@'", (n) => rep('a', n, '@')],
    ["'1.'…", (n) => rep('1.', n)],
    ["'a.'…", (n) => rep('a.', n)],
    ["'a@'…", (n) => rep('a@', n)],
    ["'x@' then 'a.'…", (n) => 'x@' + rep('a.', n - 2)],
    ["'x@' then 'a-'…", (n) => 'x@' + rep('a-', n - 2)],
    ["'x@' then 'a'… then '1'", (n) => 'x@' + rep('a', n - 2, '1')],
    ["'x@a.' then '1'…", (n) => 'x@a.' + rep('1', n - 4)],
    ["'a@b.co '…", (n) => rep('a@b.co ', n)],
    // Phone, card, SSN, IPv4: digit runs with and without separators.
    ["'1'…", (n) => rep('1', n)],
    ["'1 '…", (n) => rep('1 ', n)],
    ["'12 '…", (n) => rep('12 ', n)],
    ["'1234 '…", (n) => rep('1234 ', n)],
    ["'1-'…", (n) => rep('1-', n)],
    ["'+1 (12) '…", (n) => rep('+1 (12) ', n)],
    ["'123-45-'…", (n) => rep('123-45-', n)],
    ["'4111 1111 1111 1111 '…", (n) => rep('4111 1111 1111 1111 ', n)],
    ["'1.1.1.1 '…", (n) => rep('1.1.1.1 ', n)],
    // IBAN.
    ["'AB12 '…", (n) => rep('AB12 ', n)],
    ["'AB12' then 'A'…", (n) => 'AB12' + rep('A', n - 4)],
    ["'AB12AAAAAAAA1 '…", (n) => rep('AB12AAAAAAAA1 ', n)],
    // Dates of birth.
    ["'born Jan' then 'a'…", (n) => 'born Jan' + rep('a', n - 8)],
    ["'born 1 Jan' then 'a'…", (n) => 'born 1 Jan' + rep('a', n - 10)],
    ["'DOB '…", (n) => rep('DOB ', n)],
    ["'born on 1/1/'…", (n) => rep('born on 1/1/', n)],
    // Names.
    ["'A' then 'a'… then '1'", (n) => 'A' + rep('a', n - 1, '1')],
    ["'Alice '…", (n) => rep('Alice ', n)],
    ["'Dear Alice, '…", (n) => rep('Dear Alice, ', n)],
    ["'Alice Bob-C' then 'a'… then '1'", (n) => 'Alice Bob-C' + rep('a', n - 11, '1')],
    ["'Alice' then spaces", (n) => 'Alice' + rep(' ', n - 5)],
  ])('%s', (_, make) => {
    expectFast(make);
  });
});

const spans = (found: PiiFinding[], text: string) => found.map((f) => text.slice(f.start, f.end));

describe('detection is unchanged', () => {
  it.each([
    ['::1', '::1'],
    ['host 2001:db8::8a2e:370:7334 answered', '2001:db8::8a2e:370:7334'],
    ['full 2001:0db8:85a3:0000:0000:8a2e:0370:7334 form', '2001:0db8:85a3:0000:0000:8a2e:0370:7334'],
    ['link fe80:: and (1:2:3:4:5:6:7::)', 'fe80::'],
    ['FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF', 'FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF'],
  ])('finds IPv6 in %s', (text, span) => {
    expect(spans(detectors['ip-address'](text), text)).toContain(span);
  });

  it.each([
    '1:2:3:4:5:6:7', // seven groups, no "::"
    '1:2:3:4:5:6:7:8:9', // nine groups
    '1::2::3', // two "::"
    '12345::1', // a group of five digits
    ':::1',
    `${'1:'.repeat(20)}1`, // one run of 41 characters
    'x1:2:3:4:5:6:7:8', // inside a word
    '1:2:3:4:5:6:7:8.', // followed by a dot
  ])('finds no IPv6 in %s', (text) => {
    expect(detectors['ip-address'](text)).toEqual([]);
  });

  it('finds e-mail addresses, with a local part of any length', () => {
    const long = `${'a'.repeat(100)}@example.org`;
    const text = `write to jane.doe+vip@example.co.uk, a@b.co or ${long}; not me@localhost or @example.com`;
    expect(spans(detectors.email(text), text)).toEqual(['jane.doe+vip@example.co.uk', 'a@b.co', long]);
  });

  it('finds addresses after a long run', () => {
    const text = `${rep('x ', 50_000)} mail maria@example.org, host ::1 and 2001:db8::1, SSN 123-45-6789`;
    const kinds = scanPii(text).map((f) => [f.kind, text.slice(f.start, f.end)]);
    expect(kinds).toEqual([
      ['email', 'maria@example.org'],
      ['ip-address', '::1'],
      ['ip-address', '2001:db8::1'],
      ['national-id', '123-45-6789'],
    ]);
  });

  // The previous patterns and overlap rule, fine on short text: the rewrites must agree with them.
  const PREVIOUS_EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
  const PREVIOUS_IPV6 = /(?<![\w:.])[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:]*(?![\w:.])/g;
  const previous = (text: string, pattern: RegExp, accept: (s: string) => boolean = () => true) =>
    [...text.matchAll(pattern)].filter((m) => accept(m[0])).map((m) => [m.index, m.index + m[0].length]);
  const settings = { seed: 20240611, numRuns: 2000 };
  const short = (chars: string[]) => fc.string({ unit: fc.constantFrom(...chars), maxLength: 40 });
  const piiParts = ['a', 'B', '1', 'f', '.', '-', '_', '+', '@', ':', '::', ' ', 'co', 'x@y.com', '::1', '1.2.3.4', 'Alice', 'Bob', 'Dear ', '555 123 4567'];

  it('e-mail agrees with the previous pattern', () => {
    fc.assert(
      fc.property(short(['a', 'Z', '1', '.', '-', '_', '%', '+', '@', ' ', ':', '.co', 'x@y', '@b.co']), (text) => {
        expect(detectors.email(text).map((f) => [f.start, f.end])).toEqual(previous(text, PREVIOUS_EMAIL));
      }),
      settings,
    );
  });

  it('IPv6 agrees with the previous pattern (validity as Node checks it)', () => {
    fc.assert(
      fc.property(short(['1', 'a', 'F', 'g', ':', '::', '.', ' ', '_', '12', 'abcd']), (text) => {
        const v6 = detectors['ip-address'](text).filter((f) => text.slice(f.start, f.end).includes(':')); // IPv4 has none
        expect(v6.map((f) => [f.start, f.end])).toEqual(previous(text, PREVIOUS_IPV6, isIPv6));
      }),
      settings,
    );
  });

  it('IPv6 found from the colons agrees with the whole-run pattern it replaced', () => {
    const WHOLE_RUN_IPV6 = /(?<![\w:.])[0-9A-Fa-f:]{2,39}(?![\w:.])/g;
    const runs = fc.string({ unit: fc.constantFrom('1', 'a', 'F', 'g', ':', '::', '.', ' ', '_', 'abcd', '2001:db8:', '0:0:0:0'), maxLength: 30 });
    fc.assert(
      fc.property(runs, (text) => {
        const v6 = detectors['ip-address'](text).filter((f) => text.slice(f.start, f.end).includes(':'));
        expect(v6.map((f) => [f.start, f.end])).toEqual(previous(text, WHOLE_RUN_IPV6, isIPv6));
      }),
      settings,
    );
  });

  it('overlaps resolve as before', () => {
    fc.assert(
      fc.property(short(piiParts), (text) => {
        const candidates = [...Object.values(detectors).flatMap((detect) => detect(text)), ...nameDetector(firstNames)(text)];
        const order = ['email', 'iban', 'credit-card', 'national-id', 'ip-address', 'date-of-birth', 'person-name', 'phone'];
        candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || order.indexOf(a.kind) - order.indexOf(b.kind) || a.start - b.start);
        const kept: PiiFinding[] = [];
        for (const c of candidates) if (kept.every((k) => c.end <= k.start || c.start >= k.end)) kept.push(c);
        expect(scanPii(text, { firstNames })).toEqual(kept.sort((a, b) => a.start - b.start));
      }),
      settings,
    );
  });
});
