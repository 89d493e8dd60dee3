/**
 * The post-processing half of an augmentation: the public seed examples the DPM release chose
 * (or the fallback), the instruction, and the writer of new public records from those seeds
 * alone. Shared by the job (augmentationService.ts) and the utility bench
 * (bench/augmentSample.ts), so the bench measures the examples the job writes.
 */
import { augmentationPrompt, parseGenerated, type SeedExample } from '../../../core/icl/augmentation/augmentationPrompt';
import { defaultTemplate } from '../../../core/icl/prompts';
import type { LanguageModel } from '../../../core/model/languageModel';
import type { RandomSource } from '../../../core/random/randomSource';
import type { NewRecord } from '../../shared/api/vault';
import { modelForDataset } from '../synthesis/domainLearner';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from '../synthesis/synthesisSource';
import { contentHash } from '../vault/normalise';

/** Generations tried per example before it is given up (an empty answer, or a text the dataset holds). */
export const WRITE_ATTEMPTS = 3;
const GENERATED_TAG = 'generated';

export const augmentationTags = (runId: number) => [GENERATED_TAG, `augmentation-${runId}`];

/** The writer's instruction: the dataset's description (or its name) and, for classification, its public label set. */
export function augmentationInstruction(dataset: SynthesisDataset, description: string): string {
  const labels = dataset.task === 'classification' ? ` Each answer is one of: ${dataset.labels.join(', ')}.` : '';
  return `${description.trim() || `Examples of the dataset "${dataset.name}".`}${labels}`;
}

/**
 * The seeds as examples: the released indices into the public examples, or — no cluster survived
 * the noise — the first 2^depth public examples (post-processing of nothing private).
 */
export function seedExamples(dataset: SynthesisDataset, publicExamples: readonly LabelledExample[], released: readonly number[], depth: number): { seeds: SeedExample[]; fallback: boolean } {
  const fallback = released.length === 0;
  const indices = fallback ? publicExamples.slice(0, 2 ** depth).map((_, i) => i) : released;
  return { seeds: indices.map((i) => ({ text: publicExamples[i].text, answer: answerOf(dataset, publicExamples[i]) })), fallback };
}

export interface WriterOptions {
  /** The job's model; the dataset's domain learner writes when it is the reference learner. */
  model: LanguageModel;
  source: SynthesisSource;
  dataset: SynthesisDataset;
  instruction: string;
  seeds: SeedExample[];
  maxTokens: number;
  tags: string[];
  /** Whether the dataset holds a text of this content hash already (contentHash: normalised as the vault does), in any split. */
  holds: (hash: string) => Promise<boolean>;
  /** Sampling of the written tokens (the model's default, the CSPRNG, when absent). */
  random?: RandomSource;
  signal?: AbortSignal;
  throwIfCancelled?: () => void;
}

/**
 * Example i → a public record, or null when every attempt was empty or a text already written or
 * held by the dataset. A held text is written again: the vault would drop it, and which examples
 * it dropped would tell which texts the private split holds.
 */
export async function exampleWriter(options: WriterOptions): Promise<(index: number) => Promise<NewRecord | null>> {
  const { dataset, instruction, seeds } = options;
  const generator = await modelForDataset(options.model, options.source, dataset, defaultTemplate(instruction));
  const written = new Set<string>(); // content hashes: texts the vault would take for the same one
  return async (index) => {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      options.throwIfCancelled?.();
      const generation = await generator.generate(augmentationPrompt(instruction, seeds, index), {
        maxTokens: options.maxTokens, temperature: 1, stop: ['\nText:'], signal: options.signal, ...(options.random ? { random: options.random } : {}),
      });
      const example = parseGenerated(generation.text);
      if (!example) continue;
      const hash = contentHash(example.text);
      if (written.has(hash) || (await options.holds(hash))) continue;
      written.add(hash);
      return toRecord(dataset, { text: example.text, answer: usableAnswer(dataset, example.answer) }, options.tags);
    }
    options.throwIfCancelled?.();
    return null;
  };
}

/**
 * The answer as the dataset takes it, or null: a classification answer's first line when it is a
 * label of the set (the model may go on writing after it), a generation answer when not empty.
 * Without one the example is stored unanswered: having the model answer its own text was measured
 * to make the public demonstrations drawn from the split worse (README "Augmenting a thin public set").
 */
function usableAnswer(dataset: SynthesisDataset, answer: string | null): string | null {
  if (dataset.task !== 'classification') return answer;
  const label = answer?.split('\n')[0].trim();
  return label !== undefined && dataset.labels.includes(label) ? label : null;
}

const answerOf = (dataset: SynthesisDataset, e: LabelledExample): string | null => (dataset.task === 'classification' ? e.label : e.output);

/** A generated example (its answer already usableAnswer's) as a public record. */
function toRecord(dataset: SynthesisDataset, example: SeedExample, tags: string[]): NewRecord {
  const answer = example.answer ?? undefined;
  const fields = dataset.task === 'classification' ? { label: answer } : { output: answer };
  return { text: example.text, ...fields, split: 'public', tags };
}
