/**
 * Note templates of the synthetic clinic-notes sample (see clinicNotes.ts): five kinds of
 * short note — clinic visit, telephone triage, referral letter, follow-up, results letter —
 * filled from preformatted facts. Every kind names the patient and carries a date of birth
 * and a phone number, written the way PII scanners expect to meet them ("DOB …", "born …").
 */

export const NOTE_KINDS = ['visit', 'triage-call', 'referral', 'follow-up', 'results'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/** Everything a template needs, already formatted. */
export interface NoteFacts {
  date: string;
  name: string;
  age: number;
  sex: 'woman' | 'man';
  dob: string;
  phone: string;
  /** Department phrases of the note's label ("… and …" for the symptoms and findings). */
  symptoms: string;
  condition: string;
  medication: string;
  findings: string;
  plan: string;
  /** The patient's long-standing condition (their primary department; may differ from the label). */
  history: string;
  comorbidity: string;
  allergy: string;
  social: string;
  duration: string;
  progress: string;
  doctor: string;
  author: string;
}

export const NOTE_TEMPLATES: Record<NoteKind, (f: NoteFacts) => string> = {
  visit: (f) =>
    `Clinic visit ${f.date}. ${f.name}, ${f.age}-year-old ${f.sex}, DOB ${f.dob}. Presents with ${f.symptoms} for ${f.duration}. ` +
    `Past history: ${f.history}; ${f.comorbidity}; ${f.allergy}. Examination: ${f.findings}. Assessment: ${f.condition}. ` +
    `Plan: ${f.plan}; start ${f.medication}. Contact: ${f.phone}.`,
  'triage-call': (f) =>
    `Telephone triage, ${f.date}. ${f.name} called from ${f.phone} about ${f.symptoms} for ${f.duration}. ` +
    `Identity confirmed with date of birth ${f.dob}. History of ${f.history}; ${f.social}. Likely ${f.condition}. ` +
    `Advised ${f.medication} and ${f.plan}; to call back if worse.`,
  referral: (f) =>
    `Dear Dr ${f.doctor}, I would be grateful if you could see ${f.name}, born ${f.dob}, who has had ${f.symptoms} for ${f.duration}. ` +
    `On examination: ${f.findings}. I suspect ${f.condition}. Background: ${f.history}, ${f.comorbidity}, ${f.social}. ` +
    `Current medication: ${f.medication}. I have requested: ${f.plan}. ${f.sex === 'woman' ? 'She' : 'He'} can be reached on ${f.phone}. ` +
    `Kind regards, Dr ${f.author}.`,
  'follow-up': (f) =>
    `Follow-up ${f.date}: ${f.name} (DOB: ${f.dob}, tel. ${f.phone}), ${f.age}. Review of ${f.condition}: ${f.progress}. ` +
    `Still reports ${f.symptoms}. On review: ${f.findings}. Continue ${f.medication}. Next step: ${f.plan}.`,
  results: (f) =>
    `Results letter, ${f.date}. To ${f.name}, date of birth ${f.dob}. Your recent results: ${f.findings}, in keeping with ${f.condition}. ` +
    `We recommend ${f.medication} and ${f.plan}. Please call the clinic if you have ${f.symptoms}. ` +
    `Our records list your number as ${f.phone}.`,
};
