/**
 * One query answered by semantic group aggregation (SGA; Joo, Koh & Jung, public-data-assisted
 * DP in-context learning): the private ensemble (fresh Poisson sample, answerQuery.ts) and the
 * public ensemble (publicEnsemble.ts) answer; both are embedded with the active model (unit
 * norm); DPM clusters the private answers with the public ones as public points
 * (sga/semanticGroups.ts: the only private input and the only charged step); the public answers
 * nearest to the k largest noisy clusters' centres are the candidates, and one is selected
 * (sgaSelection.ts). Candidates and the released answer are always public texts: no private
 * answer is ever a candidate, released, or shown to the selection prompt.
 *
 * When no cluster survives the noise (every noisy count ≤ 0), the public ensemble's medoid
 * (the public answer most similar to the others) is released as the only candidate:
 * post-processing of the public answers and of the (empty) release, so nothing more is charged.
 */
import type { SgaSettings } from './sga/semanticGroups';
import { clusterAnswers, sgaCandidates } from './sga/semanticGroups';
import { checkedEmbedding, generationOptions, publicAnswers, teacherAnswers, type AnsweredQuery, type AnswerSettings } from './answerQuery';
import { generationCall } from './teacherCalls';
import { selectCandidate, type SgaSelection } from './sgaSelection';

export interface SgaOptions {
  /** DPM's public settings (depth: up to 2^depth clusters). */
  dpm: SgaSettings;
  /** Candidates k: the nearest public answers of the k largest noisy clusters. */
  candidates: number;
  selection: SgaSelection;
}

/** Index of the vector with the largest total inner product with all the others. */
function medoid(vectors: readonly ArrayLike<number>[]): number {
  let best = 0;
  let bestScore = -Infinity;
  for (const [i, a] of vectors.entries()) {
    let score = 0;
    for (const b of vectors) for (let d = 0; d < a.length; d++) score += a[d] * b[d];
    if (score > bestScore) [best, bestScore] = [i, score];
  }
  return best;
}

export async function answerSgaQuery(s: AnswerSettings, sga: SgaOptions, query: string): Promise<AnsweredQuery> {
  if (s.task.kind !== 'generation') throw new Error('semantic group aggregation answers generation tasks');
  const publicTexts = await publicAnswers(s, query);
  if (publicTexts.length === 0) throw new Error('semantic group aggregation needs public examples: the dataset has none');
  const publicVectors = await s.model.embed(publicTexts, s.signal);
  const dimension = publicVectors[0].length;
  const { answers, failures } = await teacherAnswers(s, query, generationCall(s.model, generationOptions(s)), async (text) => checkedEmbedding((await s.model.embed([text], s.signal))[0], dimension));
  const release = clusterAnswers(answers, publicVectors, sga.dpm, s.noise, s.random);
  const chosen = sgaCandidates(release, sga.candidates);
  const candidates = (chosen.length > 0 ? chosen : [medoid(publicVectors)]).map((i) => publicTexts[i]);
  const selected = await selectCandidate({ model: s.model, template: s.template, selection: sga.selection, signal: s.signal }, query, candidates);
  return { result: { answer: candidates[selected], candidates, selected }, event: release.event, failures };
}
