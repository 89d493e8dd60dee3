/**
 * Few-shot classification harness on the held-out part of the public SpamAssassin corpus
 * (the e-mails the reference learner's background never saw): balanced test e-mails,
 * k-shot prompts with demonstrations drawn (seeded, class-balanced) from a disjoint pool.
 */
import type { LanguageModel } from '../../../core/model/languageModel';
import { seededRandom } from '../../../core/random/seededRandom';
import { isBackgroundEmail, loadSpamAssassin, type CorpusEmail } from '../../../scripts/model/spamAssassin';

export const INSTRUCTION = 'Classify each e-mail as spam or ham.\n\n';
export const LABELS = [' spam', ' ham'] as const;

export interface HeldOutSplit {
  test: CorpusEmail[];
  demos: { spam: CorpusEmail[]; ham: CorpusEmail[] };
}

export function heldOutSplit(testPerClass: number, demoPerClass: number, maxChars = 400): HeldOutSplit {
  const seen = new Set<string>();
  const pool = loadSpamAssassin(maxChars)
    .filter((e) => !isBackgroundEmail(e) && e.text.length >= 40)
    .filter((e) => !seen.has(e.text) && seen.add(e.text))
    .sort((a, b) => (a.checksum < b.checksum ? -1 : 1));
  const spam = pool.filter((e) => e.label === 'spam');
  const ham = pool.filter((e) => e.label === 'ham');
  return {
    test: [...spam.slice(0, testPerClass), ...ham.slice(0, testPerClass)],
    demos: { spam: spam.slice(testPerClass, testPerClass + demoPerClass), ham: ham.slice(testPerClass, testPerClass + demoPerClass) },
  };
}

export function fewShotPrompt(demos: readonly CorpusEmail[], query: string): string {
  return `${INSTRUCTION}${demos.map((d) => `Email: ${d.text}\nLabel: ${d.label}\n\n`).join('')}Email: ${query}\nLabel:`;
}

/** Class-balanced k demonstrations in a shuffled order (seeded: test data, not private). */
export function drawDemos(split: HeldOutSplit, k: number, uniform: () => number): CorpusEmail[] {
  const pick = (from: CorpusEmail[], n: number) => {
    const copy = [...from];
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(uniform() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  };
  const chosen = [...pick(split.demos.spam, Math.ceil(k / 2)), ...pick(split.demos.ham, Math.floor(k / 2))];
  return pick(chosen, chosen.length);
}

/** Accuracy of `model` with k-shot prompts on the split's test e-mails. */
export async function fewShotAccuracy(model: LanguageModel, split: HeldOutSplit, k: number, seed = 7): Promise<number> {
  const random = seededRandom(seed);
  const uniform = () => random.nextFloat();
  let correct = 0;
  for (const email of split.test) {
    const prompt = fewShotPrompt(k > 0 ? drawDemos(split, k, uniform) : [], email.text);
    const [spam, ham] = await model.scoreLabels(prompt, LABELS);
    if ((spam > ham ? 'spam' : 'ham') === email.label) correct++;
  }
  return correct / split.test.length;
}
