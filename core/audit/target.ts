/**
 * What an audit attacks: a target answers the queries an attacker may send. A prompt
 * target (a plain few-shot prompt of real records, an exported DP synthetic prompt, a
 * prompt file the analyst brings) puts the prompt before each query and asks the model;
 * private answering (when it exists) implements the same interface over its aggregation.
 * A target that cannot answer a kind of query leaves that method out and the attacks
 * needing it are skipped for it.
 */
import type { LanguageModel } from '../model/languageModel';
import { classificationQuery, type PromptTemplate } from '../icl/prompts';

export interface AuditTarget {
  /** Log-probabilities of each label as the answer for `text` (classification). */
  classify?(text: string, labels: readonly string[], signal?: AbortSignal): Promise<number[]>;
  /** The target's continuation of an input that begins with `start` (greedy, one line). */
  complete?(start: string, maxTokens: number, signal?: AbortSignal): Promise<string>;
  /** Log-probabilities of each answer to a free question asked in the target's context. */
  ask?(question: string, answers: readonly string[], signal?: AbortSignal): Promise<number[]>;
}

/** A few-shot prompt in front of the model. */
export function promptTarget(model: LanguageModel, template: PromptTemplate, prompt: string): AuditTarget {
  return {
    // After "Label:" the demonstrations write " spam": the labels are scored with their space.
    classify: (text, labels, signal) => model.scoreLabels(classificationQuery(template, prompt, text), labels.map((l) => ` ${l}`), signal),
    complete: async (start, maxTokens, signal) =>
      (await model.generate(`${prompt}\n${template.inputPrefix} ${start}`, { maxTokens, stop: ['\n'], signal })).text,
    ask: (question, answers, signal) => model.scoreLabels(`${prompt}\n\n${question}`, answers, signal),
  };
}
