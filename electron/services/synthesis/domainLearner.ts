/**
 * The reference learner a synthesis job or utility check of one dataset uses: its
 * background built from the dataset's PUBLIC split, public label set and instruction
 * (core/model/reference/domainBackground.ts), so its demonstrations are written in the
 * dataset's words; the general background only when the dataset has no public text.
 * Reads the public split only (SynthesisSource.examples), never a private record.
 */
import type { PromptTemplate } from '../../../core/icl/prompts';
import type { LanguageModel } from '../../../core/model/languageModel';
import { domainBackground, labelledTexts } from '../../../core/model/reference/domainBackground';
import { REFERENCE_LEARNER_NAME, ReferenceLearner } from '../../../core/model/reference/referenceLearner';
import { loadReferenceBackground } from '../model/referenceResources';
import type { SynthesisDataset, SynthesisSource } from './synthesisSource';

/** Public records the background is built from, at most (a uniform sample beyond). */
const PUBLIC_LIMIT = 5000;

export async function domainLearner(source: SynthesisSource, dataset: SynthesisDataset, template: PromptTemplate): Promise<ReferenceLearner> {
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
