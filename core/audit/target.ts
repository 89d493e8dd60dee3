/**
 * What an audit attacks: a target answers the queries an attacker may send. A prompt
 * target (a plain few-shot prompt of real records, an exported DP synthetic prompt, a
 * prompt file the analyst brings) puts the prompt before each query and asks the model;
 * private answering (when it exists) implements the same interface over its aggregation.
 * A target that cannot answer a kind of query leaves that method out and the attacks
 * needing it are skipped for it. A prompt longer than the model's context is cut from the
 * left for each query (promptFit.ts).
 */
import type { LanguageModel } from '../model/languageModel';
import { classificationQuery, type PromptTemplate } from '../icl/prompts';
import { PromptFitter } from './promptFit';

export interface AuditTarget {
  /** Log-probabilities of each label as the answer for `text` (classification). */
  classify?(text: string, labels: readonly string[], signal?: AbortSignal): Promise<number[]>;
  /** The target's continuation of an input that begins with `start` (greedy, one line). */
  complete?(start: string, maxTokens: number, signal?: AbortSignal): Promise<string>;
  /** Log-probabilities of each answer to a free question asked in the target's context. */
  ask?(question: string, answers: readonly string[], signal?: AbortSignal): Promise<number[]>;
  /** How many queries so far had their prompt cut from the left to fit the model's context. */
  cuts?(): number;
}

/** A few-shot prompt in front of the model. */
export function promptTarget(model: LanguageModel, template: PromptTemplate, prompt: string): AuditTarget {
  const fitter = new PromptFitter(model, prompt);
  return {
    // After "Label:" the demonstrations write " spam": the labels are scored with their space.
    classify: async (text, labels, signal) => {
      const spaced = labels.map((l) => ` ${l}`);
      const query = await fitter.query((p) => classificationQuery(template, p, text), await fitter.longest(spaced));
      return model.scoreLabels(query, spaced, signal);
    },
    complete: async (start, maxTokens, signal) =>
      (await model.generate(await fitter.query((p) => `${p}\n${template.inputPrefix} ${start}`, maxTokens), { maxTokens, stop: ['\n'], signal })).text,
    ask: async (question, answers, signal) => model.scoreLabels(await fitter.query((p) => `${p}\n\n${question}`, await fitter.longest(answers)), answers, signal),
    cuts: () => fitter.cuts,
  };
}
