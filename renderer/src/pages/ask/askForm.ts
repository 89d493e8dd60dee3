/** The Ask form's state (text fields as typed) and its validation into an ask.plan / ask.start request. */
import type { AnswerMethodName } from '../../../../electron/shared/api/answering';
import type { MethodInput } from '../../../../electron/shared/contract';
import type { Checked } from '../../components/usePricedJob';
import { initialSgaForm, sgaRequestPart, type SgaFormState } from './sgaForm';

export type Request = MethodInput<'ask.plan'>;

export interface AskFormState extends SgaFormState {
  dataset: string;
  /** '' = the task's default (vote for classification, embedding for generation). */
  aggregation: AnswerMethodName | '';
  epsilon: string;
  perQuery: boolean;
  ensemble: string;
  shots: string;
  /** One question per line. */
  queries: string;
  /** Evaluation mode: answer this many held-out records instead of the questions ('' = off). */
  evaluate: string;
  /** Public zero-shot candidates (embedding, keyword, ptr). */
  candidates: string;
  /** Keywords released (keyword) or the largest k (ptr). */
  keywords: string;
}

export const initialAskForm: AskFormState = {
  dataset: '', aggregation: '', epsilon: '1', perQuery: false, ensemble: '10', shots: '2', queries: '', evaluate: '', candidates: '20', keywords: '5', ...initialSgaForm,
};

/** Whether an aggregation uses public zero-shot candidates / a number of keywords. */
export const usesCandidates = (m: string) => m === 'embedding' || m === 'keyword' || m === 'ptr';
export const usesKeywords = (m: string) => m === 'keyword' || m === 'ptr';

export const aggregationLabels: Record<AnswerMethodName, string> = {
  vote: 'Private voting (RNM-Gaussian, classification)',
  embedding: 'Embedding space aggregation (generation)',
  keyword: 'Keyword space aggregation, joint EM (generation)',
  ptr: 'Keyword space aggregation, PTR with private k (generation)',
  sga: 'Semantic group aggregation with public examples (generation)',
};

/** The aggregation a request with this form's choice gets: '' is the task's default (sga for generation with public examples). */
export function effectiveAggregation(form: Pick<AskFormState, 'aggregation'>, task: 'classification' | 'generation' | undefined, hasPublicExamples: boolean): AnswerMethodName | '' {
  if (form.aggregation !== '' || task === undefined) return form.aggregation;
  return task === 'classification' ? 'vote' : hasPublicExamples ? 'sga' : 'embedding';
}

type Errors = Partial<Record<keyof AskFormState, string>>;

export const queryLines = (text: string) => text.split(/\r?\n/).map((q) => q.trim()).filter((q) => q !== '');

/** `aggregation`: the one the request gets (the page resolves the default), so that only the fields it uses are checked and sent. */
export function toAskRequest(form: AskFormState, aggregation: AnswerMethodName | '' = form.aggregation): Checked<Request, Errors> {
  const sga = sgaRequestPart(form, aggregation);
  const errors: Errors = { ...sga.errors };
  const number = (key: 'epsilon' | 'ensemble' | 'shots' | 'evaluate' | 'candidates' | 'keywords', integer: boolean, max: number) => {
    const value = Number(form[key]);
    if (form[key].trim() === '' || !Number.isFinite(value) || value <= 0 || value > max || (integer && !Number.isInteger(value))) {
      errors[key] = `${integer ? 'a whole number' : 'a number'} above 0, at most ${max}`;
    }
    return value;
  };
  if (form.dataset === '') errors.dataset = 'choose a dataset';
  const epsilon = number('epsilon', false, 100);
  const ensemble = number('ensemble', true, 200);
  const shots = number('shots', true, 50);
  const evaluate = form.evaluate.trim() === '' ? undefined : number('evaluate', true, 2000);
  const candidates = usesCandidates(aggregation) ? number('candidates', true, 100) : undefined;
  const keywords = usesKeywords(aggregation) ? number('keywords', true, 50) : undefined;
  const queries = queryLines(form.queries);
  if (evaluate === undefined && queries.length === 0) errors.queries = 'type at least one question (one per line), or evaluate on held-out records';
  if (evaluate !== undefined && queries.length > 0) errors.evaluate = 'evaluation answers held-out records: clear the questions, or clear this';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      dataset: form.dataset, epsilon, perQuery: form.perQuery, ensemble, shots, queries: evaluate === undefined ? queries : [],
      ...(form.aggregation === '' ? {} : { aggregation: form.aggregation }),
      ...(evaluate === undefined ? {} : { evaluate }),
      ...(candidates === undefined ? {} : { candidates }),
      ...(keywords === undefined ? {} : { keywords }),
      ...sga.fields,
    },
  };
}
