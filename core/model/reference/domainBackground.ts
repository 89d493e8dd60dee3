/**
 * The reference learner's background for one dataset: built from the dataset's own PUBLIC
 * text — its public split, public label set and instruction, laid out as the synthesis
 * prompts lay them out ("Label: x\nText: …", cut where teacher prompts cut records) — so
 * that its vocabulary, bigrams and candidate words are the dataset's domain, not the
 * e-mail corpus of the general background. Every public pre-token becomes a whole
 * vocabulary piece (no minimum count), so a demonstration is written word by word.
 * The general background only fills in: a dataset with no public text uses it as it is.
 *
 * Reads public text only; the caller must never pass private-split records.
 */
import { buildBackground } from './backgroundBuilder';
import type { BackgroundData } from './backgroundData';

export interface DomainCorpus {
  /** The dataset's name, for the background's `source`. */
  name: string;
  /** Public-split records (text, public label if any). Never private ones. */
  texts: readonly { text: string; label?: string | null }[];
  labels: readonly string[];
  instruction: string;
  inputPrefix: string;
  labelPrefix: string;
  /** Records are cut to this many characters, as in teacher prompts. */
  maxChars: number;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The text cut to `max` characters at a word boundary (a cut word would become a word no text holds). */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max);
  return space > 0 ? text.slice(0, space) : text.slice(0, max);
}

/** The public documents of the domain, as a prompt shows them. */
function domainDocuments(corpus: DomainCorpus): string[] {
  const records = corpus.texts.map((r) => {
    const head = r.label ? `${corpus.labelPrefix} ${r.label}\n` : '';
    return `${head}${corpus.inputPrefix} ${cutAtWord(oneLine(r.text), corpus.maxChars)}`;
  });
  return [corpus.instruction, ...corpus.labels.map((l) => `${corpus.labelPrefix} ${l}`), ...records].filter((t) => t.trim() !== '');
}

/** The labelled public records' texts, as a prompt shows them (for labelTopics.ts). */
export function labelledTexts(corpus: DomainCorpus): { text: string; label: string }[] {
  return corpus.texts.flatMap((r) => (r.label && corpus.labels.includes(r.label) ? [{ text: cutAtWord(oneLine(r.text), corpus.maxChars), label: r.label }] : []));
}

/** The background of the dataset's domain, or the general one when it has no public text. */
export function domainBackground(corpus: DomainCorpus, general: BackgroundData): BackgroundData {
  if (corpus.texts.every((r) => r.text.trim() === '')) return general;
  return buildBackground(domainDocuments(corpus), {
    source: `public text of dataset "${corpus.name}": ${corpus.texts.length} public-split records, its label set and instruction`,
    minPieceCount: 1,
    minBigramCount: 1,
    maxPieces: 20_000,
    maxPieceLength: 1000, // every public pre-token whole: a cut piece ("fev" of a long URL) would be a word no text holds
  });
}
