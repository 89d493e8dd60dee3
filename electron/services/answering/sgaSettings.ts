/**
 * Public-data-assisted answering in the answering service (issue 15): which batches run the
 * public ensemble, the public examples they read (publicExamples.ts: only public splits), SGA's
 * options, and the public parameters recorded in the ledger and the certificate.
 */
import { DEFAULT_SGA_SETTINGS } from '../../../core/icl/answering/sga/semanticGroups';
import type { SgaOptions } from '../../../core/icl/answering/sgaQuery';
import type { Demonstration } from '../../../core/icl/prompts';
import type { AnswerMethodName, AnswerRequest } from '../../shared/api/answering';
import type { LanguageModel } from '../../../core/model/languageModel';
import { RefusalError } from '../refusalError';
import type { LabelledExample, SynthesisDataset } from '../synthesis/synthesisSource';

/** Public examples a batch reads at most (a fixed uniform sample beyond). */
export const PUBLIC_EXAMPLES_LIMIT = 2000;

export const sgaOptions = (request: AnswerRequest): SgaOptions => ({
  dpm: { ...DEFAULT_SGA_SETTINGS, depth: request.sgaDepth },
  candidates: request.sgaCandidates,
  selection: request.sgaSelection,
});

/** Whether a batch runs the public ensemble: always for sga; for keyword and ptr unless publicData is off or there are none. */
export function usesPublicData(method: AnswerMethodName, request: Pick<AnswerRequest, 'publicData'>, available: number): boolean {
  if (method === 'sga') return true;
  return (method === 'keyword' || method === 'ptr') && request.publicData !== false && available > 0;
}

/** Refuses settings that need public examples the dataset does not have (before anything is charged). */
export function checkPublicData(dataset: SynthesisDataset, method: AnswerMethodName, request: Pick<AnswerRequest, 'publicData'>, available: number): void {
  const fix = `add public records to "${dataset.name}", or name another dataset whose public split serves (veil public-source set, or the Ask page)`;
  if (method === 'sga' && available === 0) throw new RefusalError(`semantic group aggregation needs public examples and "${dataset.name}" has none: ${fix}`);
  if (request.publicData === true && available === 0) throw new RefusalError(`public data was asked for and "${dataset.name}" has no public examples: ${fix}`);
  if (request.publicData !== undefined && method !== 'keyword' && method !== 'ptr') throw new RefusalError(`publicData applies to keyword and ptr aggregation, not ${method}`);
}

/** The public examples as demonstrations of the task (generation: those with an output). */
export const publicDemonstrations = (examples: readonly LabelledExample[]): Demonstration[] =>
  examples.filter((e) => e.output !== null && e.output.trim() !== '').map((e) => ({ text: e.text, output: e.output! }));

/** The public parameters of public-data-assisted answering, flat (as the ledger keeps them), for the reservation and the certificate. */
export function publicDataParameters(method: AnswerMethodName, request: AnswerRequest, publicExamples: number) {
  if (method === 'sga') {
    const { depth, grid, projection, publicWeight } = sgaOptions(request).dpm;
    return { sgaDepth: depth, sgaGrid: grid, sgaProjection: projection, sgaPublicWeight: publicWeight, sgaCandidates: request.sgaCandidates, sgaSelection: request.sgaSelection, publicExamples };
  }
  return method === 'keyword' || method === 'ptr' ? { publicData: usesPublicData(method, request, publicExamples), publicExamples } : {};
}

/** Refused before anything is reserved: SGA embeds answers, and model selection scores the candidates' numbers. */
export function checkSgaCapabilities(model: LanguageModel, selection: AnswerRequest['sgaSelection']): void {
  if (!model.capabilities.embeddings) throw new RefusalError('the active model gives no embeddings, which semantic group aggregation needs');
  if (selection === 'model' && !model.capabilities.scoreLabels) throw new RefusalError('the active model cannot score labels, which selection by the model needs: use selection "nearest"');
}
