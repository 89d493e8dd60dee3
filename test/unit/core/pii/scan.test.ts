import { describe, expect, it } from 'vitest';
import { ibanValid, luhnValid, ssnValid } from '../../../../core/pii/checksums';
import { redact, scanPii } from '../../../../core/pii/scan';
import type { PiiKind } from '../../../../core/pii/types';

const names = new Set(['Alice', 'Mark', 'Jonathan', 'Maria']);
const kinds = (text: string) => scanPii(text, { firstNames: names }).map((f) => [f.kind, text.slice(f.start, f.end)]);

describe('checksums', () => {
  it('validate Luhn, IBAN mod 97 and SSN ranges', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(ibanValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanValid('GB82 WEST 1234 5698 7654 33')).toBe(false);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ssnValid('123', '45', '6789')).toBe(true);
    for (const [a, g, s] of [['000', '12', '3456'], ['666', '12', '3456'], ['912', '12', '3456'], ['123', '00', '3456'], ['123', '45', '0000']]) {
      expect(ssnValid(a, g, s)).toBe(false);
    }
  });
});

describe('scanPii', () => {
  it.each<[string, PiiKind, string]>([
    ['write to jane.doe+vip@example.co.uk today', 'email', 'jane.doe+vip@example.co.uk'],
    ['call +44 20 7946 0958 now', 'phone', '+44 20 7946 0958'],
    ['or (555) 123-4567 after six', 'phone', '(555) 123-4567'],
    ['card 4111 1111 1111 1111 exp 12/27', 'credit-card', '4111 1111 1111 1111'],
    ['pay to GB82 WEST 1234 5698 7654 32 please', 'iban', 'GB82 WEST 1234 5698 7654 32'],
    ['SSN 123-45-6789 on file', 'national-id', '123-45-6789'],
    ['from 192.168.10.254 at night', 'ip-address', '192.168.10.254'],
    ['host 2001:db8::8a2e:370:7334 answered', 'ip-address', '2001:db8::8a2e:370:7334'],
    ['she was born on 12/03/1987 in Leeds', 'date-of-birth', '12/03/1987'],
    ['DOB: March 4, 1990', 'date-of-birth', 'March 4, 1990'],
    ['I met Jonathan Reyes yesterday', 'person-name', 'Jonathan Reyes'],
    ['Dear Alice, thanks', 'person-name', 'Alice'],
  ])('finds %s', (text, kind, span) => {
    expect(kinds(text)).toContainEqual([kind, span]);
  });

  it.each([
    'the invoice total is 4111111111111112 cents', // fails Luhn
    'GB82 WEST 1234 5698 7654 33', // fails mod 97
    'ticket 000-12-3456', // invalid SSN area
    'version 300.1.2.4 and 256.1.1.1', // octets over 255
    'the meeting is in May. Mark the date', // names used as words
    'We will grant access on 2024-05-01', // a date without birth context
    'order number 123456789012', // a plain digit run is not a phone
  ])('finds nothing in: %s', (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it('keeps the longer of overlapping spans and redacts with typed placeholders', () => {
    const text = 'Mail Maria Lopez at maria@example.org or +1 415 555 0100.';
    const findings = scanPii(text, { firstNames: names });
    expect(findings.map((f) => f.kind)).toEqual(['person-name', 'email', 'phone']);
    expect(redact(text, findings).text).toBe('Mail [PERSON_NAME] at [EMAIL] or [PHONE].');
    expect(redact(text, findings, ['email']).text).toBe('Mail Maria Lopez at [EMAIL] or +1 415 555 0100.');
  });
});
