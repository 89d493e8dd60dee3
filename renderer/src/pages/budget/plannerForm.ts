/**
 * The planner form: its state, the range of each slider (log-scaled where a parameter spans
 * orders of magnitude), slider ↔ value mapping, typed-value parsing, and the conversion to
 * and from a plan.compute request. Defaults come from the contract's schemas.
 */
import {
  answerWorkloadSchema,
  synthWorkloadSchema,
  type PlanRequest,
  type Workload,
} from '../../../../electron/shared/api/planner';

type SynthWorkload = Extract<Workload, { kind: 'synth' }>;
type AnswerWorkload = Extract<Workload, { kind: 'answer' }>;
export type SynthParameters = Omit<SynthWorkload, 'kind'>;
export type AnswerParameters = Omit<AnswerWorkload, 'kind'>;

export interface PlannerFormState {
  kind: Workload['kind'];
  epsilon: number;
  /** Empty: the budget δ (else defaultDelta(N)). */
  delta: string;
  synth: SynthParameters;
  answer: AnswerParameters;
}

export interface ParameterSpec {
  label: string;
  helper: string;
  min: number;
  max: number;
  /** Slider positions are log10 of the value. */
  log?: boolean;
  integer: boolean;
}

export const epsilonSpec: ParameterSpec = { label: 'Planned ε', helper: 'total ε of the planned work', min: 0.01, max: 100, log: true, integer: false };

type NumericKeys<T> = { [K in keyof T]-?: T[K] extends number ? K : never }[keyof T];

export const synthSpecs: Record<NumericKeys<SynthParameters>, ParameterSpec> = {
  shots: { label: 'Shots', helper: 'synthetic demonstrations', min: 1, max: 64, integer: true },
  teachers: { label: 'Teachers M', helper: 'teacher prompts per token', min: 1, max: 200, integer: true },
  perTeacher: { label: 'Examples per teacher N', helper: 'private examples in each teacher prompt', min: 1, max: 50, integer: true },
  topK: { label: 'Vocabulary K', helper: 'top-K tokens of the public prompt', min: 2, max: 1000, log: true, integer: true },
  maxTokens: { label: 'Max tokens', helper: 'per demonstration (input and output each for generation tasks), all charged', min: 1, max: 512, log: true, integer: true },
  rounds: { label: 'Rounds (AdaDPSyn)', helper: 'radius-reduction rounds', min: 0, max: 10, integer: true },
};

export const answerSpecs: Record<NumericKeys<AnswerParameters>, ParameterSpec> = {
  ensemble: { label: 'Ensemble size', helper: 'teachers per query', min: 1, max: 500, log: true, integer: true },
  shots: { label: 'Shots', helper: 'private examples per teacher', min: 1, max: 64, integer: true },
  queries: { label: 'Queries', helper: 'questions answered privately', min: 1, max: 1_000_000, log: true, integer: true },
};

export const aggregationLabels: Record<AnswerParameters['aggregation'], string> = {
  vote: 'Vote (noisy histogram, GNMax)',
  embedding: 'Embedding space (Gaussian on embeddings)',
  keyword: 'Keyword space (joint exponential)',
  sga: 'Semantic groups (private clustering + public answers)',
};

function withoutKind<T extends { kind: string }>({ kind: _kind, ...parameters }: T): Omit<T, 'kind'> {
  return parameters;
}

export const initialPlannerForm: PlannerFormState = {
  kind: 'synth',
  epsilon: 4,
  delta: '',
  synth: withoutKind(synthWorkloadSchema.parse({ kind: 'synth' })),
  answer: withoutKind(answerWorkloadSchema.parse({ kind: 'answer' })),
};

export const sliderStep = (spec: ParameterSpec) => (spec.log ? 0.01 : spec.integer ? 1 : (spec.max - spec.min) / 100);
export const sliderBounds = (spec: ParameterSpec) => (spec.log ? [Math.log10(spec.min), Math.log10(spec.max)] : [spec.min, spec.max]);
export const toSlider = (spec: ParameterSpec, value: number) => (spec.log ? Math.log10(value) : value);

const round = (spec: ParameterSpec, x: number) => (spec.integer ? Math.round(x) : Number(x.toPrecision(2)));

/**
 * A slider position back to a value: whole numbers, or two significant digits for ε. Given
 * the current value, a move that would round back to it (an arrow key on a log scale)
 * steps to the next value in the direction of the move instead, so the keyboard never sticks.
 */
export function fromSlider(spec: ParameterSpec, position: number, current?: number): number {
  let value = round(spec, spec.log ? 10 ** position : position);
  const direction = current === undefined ? 0 : Math.sign(position - toSlider(spec, current));
  if (value === current && direction !== 0) {
    const unit = spec.integer ? 1 : 10 ** (Math.floor(Math.log10(current)) - 1);
    value = round(spec, current + direction * unit);
  }
  return Math.min(spec.max, Math.max(spec.min, value));
}

export type ParsedValue = { ok: true; value: number } | { ok: false; error: string };

/** A typed value, checked against the parameter's range. */
export function parseParameter(spec: ParameterSpec, text: string): ParsedValue {
  const trimmed = text.trim();
  const value = Number(trimmed);
  const error = `${spec.integer ? 'a whole number' : 'a number'} from ${spec.min.toLocaleString('en-US')} to ${spec.max.toLocaleString('en-US')}`;
  if (spec.integer && !/^\d+$/.test(trimmed)) return { ok: false, error };
  if (trimmed === '' || !Number.isFinite(value) || value < spec.min || value > spec.max) return { ok: false, error };
  return { ok: true, value };
}

export type PlanRequestResult = { ok: true; request: PlanRequest } | { ok: false; error: string };

export function toPlanRequest(dataset: string, form: PlannerFormState): PlanRequestResult {
  const delta = form.delta.trim() === '' ? undefined : Number(form.delta);
  if (delta !== undefined && !(delta > 0 && delta < 1)) return { ok: false, error: 'δ must be in (0, 1), e.g. 1e-6; empty: the budget δ' };
  const workload: Workload = form.kind === 'synth' ? { kind: 'synth', ...form.synth } : { kind: 'answer', ...form.answer };
  return { ok: true, request: { dataset, epsilon: form.epsilon, delta, workload } };
}

/** A saved plan back into the form; the other workload keeps what the form had. */
export function formFromRequest(request: PlanRequest, current: PlannerFormState): PlannerFormState {
  const { workload } = request;
  return {
    kind: workload.kind,
    epsilon: request.epsilon,
    delta: request.delta === undefined ? '' : String(request.delta),
    synth: workload.kind === 'synth' ? withoutKind(workload) : current.synth,
    answer: workload.kind === 'answer' ? withoutKind(workload) : current.answer,
  };
}
