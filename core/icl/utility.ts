/**
 * Utility of a few-shot prompt on held-out examples with the active model: accuracy for
 * classification (the label with the highest log-probability after the prompt), ROUGE-L
 * for generation. Reads only the examples it is given — the caller passes held-out
 * records and, for the real-demonstration reference, public-split records, never the
 * private split.
 */
import type { LanguageModel } from '../model/languageModel';
import { classificationQuery, generationQuery, renderFewShotPrompt, type Demonstration, type PromptTemplate } from './prompts';
import { rougeL } from './rouge';

export interface HeldOutExample {
  text: string;
  /** The label (classification) or the reference output (generation). */
  target: string;
}

export interface UtilityRequest {
  model: LanguageModel;
  template: PromptTemplate;
  task: { kind: 'classification'; labels: readonly string[] } | { kind: 'generation'; maxTokens: number };
  examples: readonly HeldOutExample[];
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Mean score of `demonstrations` (empty = zero-shot) over the examples. */
export async function promptUtility(req: UtilityRequest, demonstrations: readonly Demonstration[]): Promise<number> {
  return mean(await promptScores(req, demonstrations));
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Balanced accuracy: the mean over the labels present of each label's accuracy. Unlike
 * accuracy it does not reward answering the most common label every time (0.5 for two labels).
 */
export function balancedScore(scores: readonly number[], examples: readonly HeldOutExample[]): number {
  const byTarget = new Map<string, number[]>();
  examples.forEach((e, i) => byTarget.set(e.target, [...(byTarget.get(e.target) ?? []), scores[i]]));
  return mean([...byTarget.values()].map(mean));
}

/** The score of each example (1/0 for classification, ROUGE-L for generation), in order. */
export async function promptScores(req: UtilityRequest, demonstrations: readonly Demonstration[]): Promise<number[]> {
  if (req.examples.length === 0) throw new Error('no held-out examples to evaluate on');
  const fewShot = renderFewShotPrompt(req.template, demonstrations);
  const scores: number[] = [];
  for (const [i, example] of req.examples.entries()) {
    req.signal?.throwIfAborted();
    if (req.task.kind === 'classification') {
      const prompt = classificationQuery(req.template, fewShot, example.text);
      // After "Label:" the answer is " spam", as the demonstrations write it; "spam" right after
      // the colon is text no demonstration shows, and every label scores alike.
      const logProbs = await req.model.scoreLabels(prompt, req.task.labels.map((label) => ` ${label}`), req.signal);
      const best = logProbs.indexOf(Math.max(...logProbs));
      scores.push(req.task.labels[best] === example.target ? 1 : 0);
    } else {
      const prompt = generationQuery(req.template, fewShot, example.text);
      const generation = await req.model.generate(prompt, { maxTokens: req.task.maxTokens, stop: ['\n'], signal: req.signal });
      scores.push(rougeL(generation.text, example.target));
    }
    req.onProgress?.(i + 1, req.examples.length);
  }
  return scores;
}
