/** The shipped reference background is exactly what its generator script produces. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildBackground } from '../../../core/model/reference/backgroundBuilder';
import { parseBackgroundData } from '../../../core/model/reference/backgroundData';
import { isBackgroundEmail, loadSpamAssassin } from '../../../scripts/model/spamAssassin';

describe('reference background resource', () => {
  it('is reproducible from the public corpus and valid', () => {
    const shipped = parseBackgroundData(JSON.parse(readFileSync('resources/model/reference-background.json', 'utf8')));
    const emails = loadSpamAssassin(2000).filter(isBackgroundEmail);
    const rebuilt = buildBackground(emails.map((e) => e.text), { source: shipped.source });
    expect(rebuilt).toEqual(shipped);
    expect(shipped.documents).toBe(emails.length);
  });
});
