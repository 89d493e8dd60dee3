/**
 * The public ensemble of public-data-assisted answering (Joo, Koh & Jung, public-data-assisted
 * DP in-context learning): M teachers of the private ensemble's shape, each prompted with
 * `shots` examples drawn from the public examples (the dataset's public split, or another
 * dataset's: electron/services/answering/publicExamples.ts). Nothing private enters these
 * prompts, so their answers are public: they may be released, serve as SGA candidates and
 * widen the keyword universe and final prompt at no privacy cost.
 */
import type { RandomSource } from '../../random/randomSource';
import { sampleWithoutReplacement } from '../../random/uniform';
import type { Demonstration } from '../prompts';

export interface PublicEnsemble {
  examples: readonly Demonstration[];
  ensemble: number;
  shots: number;
  random: RandomSource;
}

/** Each public teacher's answer (`answer` prompts the model with its demonstrations); [] without public examples. */
export async function publicEnsembleAnswers(e: PublicEnsemble, answer: (demos: readonly Demonstration[]) => Promise<string>): Promise<string[]> {
  if (e.examples.length === 0) return [];
  const answers: string[] = [];
  for (let m = 0; m < e.ensemble; m++) answers.push(await answer(sampleWithoutReplacement(e.random, e.examples, e.shots)));
  return answers;
}
