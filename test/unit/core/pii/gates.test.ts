/**
 * The PII detectors skip a pattern when its gate — a cheap necessary condition looked for with
 * indexOf — fails (core/pii/detectors.ts). Findings stay identical only if every gate is
 * necessary: wherever the pattern matches, the gate passes. Checked on random strings built
 * from pieces that make each pattern match often (the test counts the matches, so it cannot
 * pass vacuously), and on examples of every form.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectors, gatedPatterns } from '../../../../core/pii/detectors';

const pieces: Record<keyof typeof gatedPatterns, string[]> = {
  email: ['a', 'Z', '1', '.', '-', '_', '+', '@', ' ', '.co', 'x@y', '@b.org', 'jo@example.org'],
  ipv4: ['1', '2', '5', '0', '9', '.', '-', ' ', 'a', '25', '255', '1.2.3.4', '10.0.', '.1'],
  ssn: ['1', '2', '3', '0', '-', ' ', 'a', '_', '123', '45', '6789', '123-45-', '-6789', '123-45-6789'],
  birth: ['born ', 'Born on ', 'DOB: ', 'D.O.B. ', 'date of birth ', 'birthday ', 'is ', 'was ', '1', '9', '0', '2', '19', '20', '/', '-', '.', ' ', ',', 'Jan ', 'March ', '12 ', '1990', '2001-02-03', 'x'],
};

const examples: Record<keyof typeof gatedPatterns, string[]> = {
  email: ['mail jo@example.org now', 'a.b+c@sub.example.co.uk'],
  ipv4: ['host 192.168.0.1 up', '10.0.0.255'],
  ssn: ['SSN 123-45-6789.', '001-01-0001'],
  birth: ['born on 12/03/1990', 'DOB: 1985-07-14', 'date of birth was 3 Mar 2001', 'Birthday: March 9, 1999', 'dob 01.02.2000'],
};

describe('PII detector gates', () => {
  it.each(Object.keys(gatedPatterns) as (keyof typeof gatedPatterns)[])('%s: the gate passes wherever the pattern matches', (name) => {
    const { pattern, gate } = gatedPatterns[name];
    const matchesAnywhere = new RegExp(pattern.source, pattern.flags.replace('g', ''));
    for (const text of examples[name]) expect([matchesAnywhere.test(text), gate(text)], text).toEqual([true, true]);
    let matched = 0;
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...pieces[name]), maxLength: 30 }), (text) => {
        if (!matchesAnywhere.test(text)) return;
        matched++;
        expect(gate(text), text).toBe(true);
      }),
      { seed: 20261126, numRuns: 20_000 },
    );
    expect(matched).toBeGreaterThan(200);
  });

  it('a failed gate skips the pattern: prose without its characters finds nothing', () => {
    const prose = 'Record 120. patient reported mild pain in the left knee, follow up in two weeks: done';
    for (const { gate } of Object.values(gatedPatterns)) expect(gate(prose)).toBe(false);
    expect(Object.values(detectors).flatMap((detect) => detect(prose))).toEqual([]);
  });
});
