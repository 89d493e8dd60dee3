/**
 * Veil's fully synthetic clinic-notes sample dataset: short notes triaged to one of five
 * departments (the public label set CLINIC_LABELS), naming patients with their age, date of
 * birth and phone number, plus planted canary records for leakage audits.
 *
 * Design
 * - Patients: subjects P0001…P0500, each with 2–6 notes, a sex, a first name from the
 *   caller's first-name lists (the @stdlib first-name datasets), a surname, a date of birth,
 *   a phone number and a primary department with a long-standing condition. A note goes to
 *   the primary department with probability 0.6, else to another one uniformly. Its two symptoms,
 *   two findings, assessment, medication and plan come from the note's department, so the label is
 *   learnable from the words; the history line names the primary department's condition
 *   (realistic noise when the note is for another department).
 * - Splits by subject, so no person is in two splits: subject number mod 10 = 0 → public,
 *   1–2 → held-out, 3–9 → private (≈ 10 / 20 / 70 % of the notes).
 * - Canaries (Carlini et al. 2019, "The Secret Sharer"): 20 extra one-note subjects
 *   (P0501…P0520) whose note ends with a unique random "Canary code: XXXX-XXXX-XXXX"
 *   (60 random bits). The first half are members: private split, tag 'canary'. The second
 *   half are non-members: held-out split, tag 'canary-holdout', never in the private split.
 *   Canaries are drawn i.i.d. and their labels cycle through the label set in both halves,
 *   so splitting them by position is a random membership assignment: an audit compares how
 *   the released outputs treat members and non-members.
 * - Deterministic: a seeded xoshiro128** stream (core/random/seededRandom). This is public
 *   synthetic data, not private data, so a fixed seed is fine (ARCHITECTURE §3). The output
 *   also depends on the first-name lists passed in.
 */
import type { RandomSource } from '../random/randomSource';
import { seededRandom } from '../random/seededRandom';
import { uniformInt } from '../random/uniform';
import { NOTE_KINDS, NOTE_TEMPLATES, type NoteFacts, type NoteKind } from './clinicTemplates';
import { ALLERGIES, CLINIC_LABELS, COMORBIDITIES, DEPARTMENTS, DURATIONS, PROGRESS, SOCIAL, SURNAMES, type ClinicLabel } from './clinicVocabulary';

const CLINIC_SEED = 'veil-clinic-notes-v1';
export const CANARY_PREFIX = 'Canary code: ';
export const CANARY_TAG = 'canary';
export const CANARY_HOLDOUT_TAG = 'canary-holdout';

const PATIENTS = 500;
const NOTES_PER_PATIENT = { min: 2, max: 6 };
const PRIMARY_SHARE = 0.6;
const CANARIES = 20;
const CANARY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // 32 symbols, no 0/O or 1/I

export type ClinicSplit = 'private' | 'public' | 'held-out';

export interface ClinicNote {
  text: string;
  label: ClinicLabel;
  split: ClinicSplit;
  subject: string;
  tags: string[];
}

export interface FirstNames {
  female: readonly string[];
  male: readonly string[];
}

export interface Patient {
  subject: string;
  name: string;
  sex: 'woman' | 'man';
  dob: Date;
  phone: { area: number; line: string };
  primary: ClinicLabel;
  history: string;
  comorbidity: string;
  allergy: string;
  social: string;
}

const pick = <T>(random: RandomSource, list: ArrayLike<T>): T => list[uniformInt(random, list.length)];

/** Two different entries of `list`, joined by "and". */
function twoOf(random: RandomSource, list: readonly string[]): string {
  const first = uniformInt(random, list.length);
  const second = (first + 1 + uniformInt(random, list.length - 1)) % list.length;
  return `${list[first]} and ${list[second]}`;
}
const between = (random: RandomSource, lo: number, hi: number) => lo + uniformInt(random, hi - lo + 1);
const pad = (n: number) => String(n).padStart(2, '0');

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** The ways notes write a date; each is one the date-of-birth detector recognises. */
const DATE_FORMATS: ((y: number, m: number, d: number) => string)[] = [
  (y, m, d) => `${y}-${pad(m + 1)}-${pad(d)}`,
  (y, m, d) => `${pad(m + 1)}/${pad(d)}/${y}`,
  (y, m, d) => `${d} ${MONTHS[m]} ${y}`,
  (y, m, d) => `${MONTHS[m]} ${d}, ${y}`,
];
/** 555 numbers: the exchange reserved for fiction in North America. */
const PHONE_FORMATS: ((area: number, line: string) => string)[] = [
  (area, line) => `(${area}) 555-${line}`,
  (area, line) => `${area}-555-${line}`,
  (area, line) => `+1 ${area} 555 ${line}`,
];

const DAY_MS = 86_400_000;
const BORN_FROM = Date.UTC(1934, 0, 1);
const BORN_DAYS = 72 * 365;
const VISITS_FROM = Date.UTC(2023, 0, 1);
const VISIT_DAYS = 731;

const formatDate = (random: RandomSource, d: Date) => pick(random, DATE_FORMATS)(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());

function ageAt(dob: Date, on: Date): number {
  const birthdayPassed = on.getUTCMonth() > dob.getUTCMonth() || (on.getUTCMonth() === dob.getUTCMonth() && on.getUTCDate() >= dob.getUTCDate());
  return on.getUTCFullYear() - dob.getUTCFullYear() - (birthdayPassed ? 0 : 1);
}

export function makePatient(random: RandomSource, number: number, names: FirstNames): Patient {
  const female = uniformInt(random, 2) === 0;
  const primary = pick(random, CLINIC_LABELS);
  return {
    subject: `P${String(number).padStart(4, '0')}`,
    name: `${pick(random, female ? names.female : names.male)} ${pick(random, SURNAMES)}`,
    sex: female ? 'woman' : 'man',
    dob: new Date(BORN_FROM + uniformInt(random, BORN_DAYS) * DAY_MS),
    phone: { area: between(random, 201, 989), line: String(uniformInt(random, 10_000)).padStart(4, '0') },
    primary,
    history: pick(random, DEPARTMENTS[primary].conditions),
    comorbidity: pick(random, COMORBIDITIES),
    allergy: pick(random, ALLERGIES),
    social: pick(random, SOCIAL),
  };
}

/** The facts of one note about `patient` for `label`'s department, and its kind. */
export function noteFacts(random: RandomSource, patient: Patient, label: ClinicLabel): { kind: NoteKind; facts: NoteFacts } {
  const department = DEPARTMENTS[label];
  const visit = new Date(VISITS_FROM + uniformInt(random, VISIT_DAYS) * DAY_MS);
  const kind = pick(random, NOTE_KINDS);
  const facts: NoteFacts = {
    date: formatDate(random, visit),
    name: patient.name,
    age: ageAt(patient.dob, visit),
    sex: patient.sex,
    dob: formatDate(random, patient.dob),
    phone: pick(random, PHONE_FORMATS)(patient.phone.area, patient.phone.line),
    symptoms: twoOf(random, department.symptoms),
    condition: label === patient.primary ? patient.history : pick(random, department.conditions),
    medication: pick(random, department.medications),
    findings: twoOf(random, department.findings),
    plan: pick(random, department.plans),
    history: patient.history,
    comorbidity: patient.comorbidity,
    allergy: patient.allergy,
    social: patient.social,
    duration: pick(random, DURATIONS),
    progress: pick(random, PROGRESS),
    doctor: pick(random, SURNAMES),
    author: pick(random, SURNAMES),
  };
  return { kind, facts };
}

/** One note about `patient` for `label`'s department (split left to the caller). */
function writeNote(random: RandomSource, patient: Patient, label: ClinicLabel): Omit<ClinicNote, 'split'> {
  const { kind, facts } = noteFacts(random, patient, label);
  return { text: NOTE_TEMPLATES[kind](facts), label, subject: patient.subject, tags: [kind] };
}

export function splitOf(patientNumber: number): ClinicSplit {
  const digit = patientNumber % 10;
  return digit === 0 ? 'public' : digit <= 2 ? 'held-out' : 'private';
}

function canaryCode(random: RandomSource): string {
  const group = () => Array.from({ length: 4 }, () => pick(random, CANARY_ALPHABET)).join('');
  return `${group()}-${group()}-${group()}`;
}

/**
 * `patients` patients (numbered from 1), each with 2–6 notes' departments (the primary one with
 * probability PRIMARY_SHARE); `write` draws one record for a patient, department and split.
 */
export function patientRecords<T>(random: RandomSource, names: FirstNames, patients: number, write: (random: RandomSource, patient: Patient, label: ClinicLabel, split: ClinicSplit) => T): T[] {
  const records: T[] = [];
  for (let number = 1; number <= patients; number++) {
    const patient = makePatient(random, number, names);
    const others = CLINIC_LABELS.filter((l) => l !== patient.primary);
    const count = between(random, NOTES_PER_PATIENT.min, NOTES_PER_PATIENT.max);
    for (let i = 0; i < count; i++) {
      const label = random.nextFloat() < PRIMARY_SHARE ? patient.primary : pick(random, others);
      records.push(write(random, patient, label, splitOf(number)));
    }
  }
  return records;
}

const patientNotes = (random: RandomSource, names: FirstNames): ClinicNote[] =>
  patientRecords(random, names, PATIENTS, (r, patient, label, split) => ({ ...writeNote(r, patient, label), split }));

function canaryNotes(random: RandomSource, names: FirstNames): ClinicNote[] {
  return Array.from({ length: CANARIES }, (_, i) => {
    const member = i < CANARIES / 2;
    const note = writeNote(random, makePatient(random, PATIENTS + 1 + i, names), CLINIC_LABELS[i % CLINIC_LABELS.length]);
    return {
      ...note,
      text: `${note.text} ${CANARY_PREFIX}${canaryCode(random)}.`,
      split: member ? 'private' : 'held-out',
      tags: [...note.tags, member ? CANARY_TAG : CANARY_HOLDOUT_TAG],
    };
  });
}

/** The whole dataset: about 2,000 patient notes, then the 20 canaries. Same seed and names → same notes. */
export function generateClinicNotes(names: FirstNames, seed: number | string = CLINIC_SEED): ClinicNote[] {
  const root = seededRandom(seed);
  return [...patientNotes(root.fork(1), names), ...canaryNotes(root.fork(2), names)];
}
