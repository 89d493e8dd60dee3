/**
 * The public last step of semantic group aggregation (Joo, Koh & Jung): choosing one answer
 * among the public candidates. 'nearest' releases the candidate of the largest noisy cluster
 * (top-1); 'model' asks the model, with a public selection prompt holding the query and the
 * candidates only, to pick the most accurate one (scored as the labels " 1" … " k").
 * Post-processing of public texts: it costs nothing and sees nothing private.
 */
import type { LanguageModel } from '../../model/languageModel';
import type { PromptTemplate } from '../prompts';

export type SgaSelection = 'model' | 'nearest';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The public selection prompt: the query, the numbered candidates, "Choice:". */
export function selectionPrompt(template: PromptTemplate, query: string, candidates: readonly string[]): string {
  const listed = candidates.map((c, i) => `${i + 1}. ${oneLine(c) || '(empty answer)'}`).join('\n');
  return `${template.instruction}\n\n${template.inputPrefix} ${oneLine(query)}\nCandidate answers:\n${listed}\nPick the most accurate answer among the candidates above. Reply with its number.\nChoice:`;
}

/** Index of the candidate released: 0 (the largest cluster's) for 'nearest' or a single candidate, else the model's pick. */
export async function selectCandidate(
  args: { model: LanguageModel; template: PromptTemplate; selection: SgaSelection; signal?: AbortSignal },
  query: string,
  candidates: readonly string[],
): Promise<number> {
  if (candidates.length === 0) throw new Error('selectCandidate: no candidates');
  if (args.selection === 'nearest' || candidates.length === 1) return 0;
  const scores = await args.model.scoreLabels(selectionPrompt(args.template, query, candidates), candidates.map((_, i) => ` ${i + 1}`), args.signal);
  return scores.reduce((best, v, i) => (v > scores[best] ? i : best), 0);
}
