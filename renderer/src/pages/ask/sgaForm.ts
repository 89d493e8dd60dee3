/** The Ask form's public-data settings (issue 15): SGA's clusters, candidates and selection; public data for keyword methods. */
import type { MethodInput } from '../../../../electron/shared/contract';

type Request = MethodInput<'ask.plan'>;

export interface SgaFormState {
  /** Split levels of the private clustering (up to 2^depth clusters). */
  sgaDepth: string;
  /** Candidates k. */
  sgaCandidates: string;
  sgaSelection: 'model' | 'nearest';
  /** keyword / ptr: use the public ensemble's answers (when the dataset has public examples). */
  publicData: boolean;
}

export const initialSgaForm: SgaFormState = { sgaDepth: '2', sgaCandidates: '3', sgaSelection: 'model', publicData: true };

export type SgaErrors = Partial<Record<'sgaDepth' | 'sgaCandidates', string>>;

const wholeNumber = (text: string, max: number) => {
  const value = Number(text);
  return text.trim() !== '' && Number.isInteger(value) && value >= 1 && value <= max ? value : null;
};

/** The request fields of these settings for the aggregation the request gets (the page resolves the default), or the errors. */
export function sgaRequestPart(form: SgaFormState, aggregation: string): { fields: Partial<Request>; errors: SgaErrors } {
  const errors: SgaErrors = {};
  if (aggregation === 'keyword' || aggregation === 'ptr') return { fields: form.publicData ? {} : { publicData: false }, errors };
  if (aggregation !== 'sga') return { fields: {}, errors };
  const depth = wholeNumber(form.sgaDepth, 6);
  const candidates = wholeNumber(form.sgaCandidates, 16);
  if (depth === null) errors.sgaDepth = 'a whole number from 1 to 6';
  if (candidates === null) errors.sgaCandidates = 'a whole number from 1 to 16';
  return { fields: depth === null || candidates === null ? {} : { sgaDepth: depth, sgaCandidates: candidates, sgaSelection: form.sgaSelection }, errors };
}
