/**
 * The reference learner a synthesis job or utility check of one dataset uses: its
 * background built from the dataset's PUBLIC split, public label set and instruction
 * (core/model/reference/domainBackground.ts), so its demonstrations are written in the
 * dataset's words; the general background only when the dataset has no public text.
 * Reads the public split only (SynthesisSource.examples), never a private record.
 *
 * Building one takes a fraction of a second to seconds (the public split's n-grams and
 * label topics), so the last few are kept, keyed by the public split's version
 * (SynthesisSource.publicVersion) and everything else they are built from: a job after an
 * unchanged public split reuses its learner (a learner holds no state between calls), and
 * any change to the public split builds a new one.
 */
import type { PromptTemplate } from '../../../core/icl/prompts';
import type { LanguageModel } from '../../../core/model/languageModel';
import { domainBackground, labelledTexts } from '../../../core/model/reference/domainBackground';
import { REFERENCE_LEARNER_NAME, ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { loadReferenceBackground } from '../model/referenceResources';
import type { SynthesisDataset, SynthesisSource } from './synthesisSource';

/** Public records the background is built from, at most (a uniform sample beyond). */
const PUBLIC_LIMIT = 5000;

/** Learners kept (most recently used last). */
const KEPT = 4;
const learners = new Map<string, { datasetId: number; learner: Promise<ReferenceLearner> }>();

export async function domainLearner(source: SynthesisSource, dataset: SynthesisDataset, template: PromptTemplate): Promise<ReferenceLearner> {
  const version = await source.publicVersion?.(dataset);
  if (version === undefined) return buildLearner(source, dataset, template);
  const key = JSON.stringify([version, dataset.name, dataset.labels, template.instruction, template.inputPrefix, template.labelPrefix, template.maxExampleChars]);
  const kept = learners.get(key)?.learner ?? buildLearner(source, dataset, template);
  learners.delete(key);
  learners.set(key, { datasetId: dataset.id, learner: kept });
  while (learners.size > KEPT) learners.delete(learners.keys().next().value!);
  kept.catch(() => learners.get(key)?.learner === kept && learners.delete(key));
  return kept;
}

/** Drops the learners kept for a dataset id (its dataset deleted: its public texts are not kept in memory). */
export function forgetLearners(datasetId: number): void {
  for (const [key, kept] of learners) if (kept.datasetId === datasetId) learners.delete(key);
}

async function buildLearner(source: SynthesisSource, dataset: SynthesisDataset, template: PromptTemplate): Promise<ReferenceLearner> {
  const texts = await source.examples(dataset, 'public', PUBLIC_LIMIT);
  const corpus = { name: dataset.name, texts, labels: dataset.labels, instruction: template.instruction, inputPrefix: template.inputPrefix, labelPrefix: template.labelPrefix, maxChars: template.maxExampleChars };
  const data = domainBackground(corpus, await loadReferenceBackground());
  const own = texts.some((t) => t.text.trim() !== '');
  return new ReferenceLearner(data, { domain: own, labels: dataset.labels, labelled: labelledTexts(corpus), name: own ? `${REFERENCE_LEARNER_NAME}, background: public split of "${dataset.name}"` : undefined });
}

/** The model to use for a dataset: the active one, or the domain learner when the reference learner is active. */
export async function modelForDataset(model: LanguageModel, source: SynthesisSource, dataset: SynthesisDataset, template: PromptTemplate): Promise<LanguageModel> {
  return model.info.backend === 'reference' ? domainLearner(source, dataset, template) : model;
}
