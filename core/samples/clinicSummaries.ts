/**
 * Veil's synthetic generation sample: instruction → summary of a clinic note. Each record's text
 * is a synthetic clinic note (the clinic-notes sample's patients, vocabulary and note templates,
 * clinicNotes.ts) and its reference output a one-line summary written from the same facts — the
 * kind of note, the symptoms, the likely condition, the plan and the medication — with no name,
 * date of birth or phone number (a de-identified summary: a model's summary that repeats one
 * leaks it). ROUGE-L against the reference is the utility measure.
 *
 * 300 patients with 2–6 notes each (≈ 1,200 records); splits by subject as in the clinic sample
 * (patient number mod 10 = 0 → public, 1–2 → held-out, 3–9 → private). Tags: the note's kind and
 * department. Deterministic: a seeded xoshiro128** stream — public synthetic data, not private
 * data, so a fixed seed is fine (ARCHITECTURE §3); the output also depends on the first-name lists.
 */
import { seededRandom } from '../random/seededRandom';
import { noteFacts, patientRecords, type ClinicSplit, type FirstNames } from './clinicNotes';
import { NOTE_TEMPLATES, type NoteFacts, type NoteKind } from './clinicTemplates';

const SUMMARIES_SEED = 'veil-clinic-summaries-v1';
const PATIENTS = 300;

/** The instruction a teacher prompt states for this sample. */
export const CLINIC_SUMMARY_INSTRUCTION = 'Summarise the clinic note in one line: the kind of note, symptoms, likely condition, plan and medication. Leave out names, dates and phone numbers.';

export interface ClinicSummary {
  text: string;
  output: string;
  split: ClinicSplit;
  subject: string;
  tags: string[];
}

const KIND_TITLES: Record<NoteKind, string> = {
  visit: 'Clinic visit',
  'triage-call': 'Telephone triage',
  referral: 'Referral',
  'follow-up': 'Follow-up',
  results: 'Results letter',
};

/** The reference summary: only facts every note kind states, and no identifier. */
export function summarise(kind: NoteKind, f: NoteFacts): string {
  return `${KIND_TITLES[kind]}: ${f.symptoms}; likely ${f.condition}. Plan: ${f.plan}; ${f.medication}.`;
}

/** The whole sample. Same seed and names → same records. */
export function generateClinicSummaries(names: FirstNames, seed: number | string = SUMMARIES_SEED): ClinicSummary[] {
  return patientRecords(seededRandom(seed).fork(1), names, PATIENTS, (random, patient, label, split) => {
    const { kind, facts } = noteFacts(random, patient, label);
    return { text: NOTE_TEMPLATES[kind](facts), output: summarise(kind, facts), split, subject: patient.subject, tags: [kind, label] };
  });
}
