/** The Synthesize form's state, its defaults, filling it from a saved plan, and its conversion into an API request. */
import type { SavedPlan } from '../../../../electron/shared/api/planner';
import { synthesisRequestFromPlan, type SynthesisMethod } from '../../../../electron/shared/api/synthesis';
import type { MethodInput } from '../../../../electron/shared/contract';
import type { Checked } from '../../components/usePricedJob';

export interface SynthesisFormState {
  dataset: string;
  method: SynthesisMethod;
  /** The chosen public labels; null: all of the dataset's labels. */
  labels: string[] | null;
  shots: string;
  epsilon: string;
  delta: string;
  teachers: string;
  perTeacher: string;
  topK: string;
  maxTokens: string;
  rounds: string;
  sampling: 'per-token' | 'per-demonstration';
  instruction: string;
}

export const initialForm: SynthesisFormState = {
  dataset: '',
  method: 'dp-few-shot-gaussian',
  labels: null,
  shots: '4',
  epsilon: '4',
  delta: '',
  teachers: '10',
  perTeacher: '1',
  topK: '100',
  maxTokens: '64',
  rounds: '2',
  sampling: 'per-token',
  instruction: '',
};

/** The form filled with a saved synthetic-prompt plan (labels: all; the instruction is kept). */
export function formFromPlan(form: SynthesisFormState, plan: SavedPlan): SynthesisFormState {
  const r = synthesisRequestFromPlan(plan);
  const text = (x: number) => String(x);
  return {
    ...form,
    dataset: r.dataset,
    method: r.method,
    labels: null,
    shots: text(r.shots),
    epsilon: text(r.epsilon),
    delta: r.delta === undefined ? '' : text(r.delta),
    teachers: text(r.teachers),
    perTeacher: text(r.perTeacher),
    topK: text(r.topK),
    maxTokens: text(r.maxTokens),
    rounds: text(r.rounds),
    sampling: r.sampling ?? 'per-token',
  };
}

export type Request = MethodInput<'synth.plan'>;
export type FormResult = Checked<Request, Partial<Record<keyof SynthesisFormState, string>>>;

const integerFields = [
  ['shots', 1, 64],
  ['teachers', 1, 200],
  ['perTeacher', 1, 50],
  ['topK', 2, 1000],
  ['maxTokens', 1, 512],
  ['rounds', 0, 10],
] as const;

/** Validate every field; errors are keyed by field so each shows under its input. */
export function toRequest(form: SynthesisFormState): FormResult {
  const errors: Partial<Record<keyof SynthesisFormState, string>> = {};
  const numbers: Record<string, number> = {};
  for (const [key, min, max] of integerFields) {
    const value = Number(form[key]);
    if (!/^\d+$/.test(form[key].trim()) || value < min || value > max) errors[key] = `a whole number from ${min} to ${max}`;
    numbers[key] = value;
  }
  const epsilon = Number(form.epsilon);
  if (!(epsilon > 0 && epsilon <= 100)) errors.epsilon = 'ε must be > 0 and ≤ 100';
  const delta = form.delta.trim() === '' ? undefined : Number(form.delta);
  if (delta !== undefined && !(delta > 0 && delta < 1)) errors.delta = 'δ must be in (0, 1), e.g. 1e-6; empty = dataset default';
  if (form.dataset === '') errors.dataset = 'choose a dataset';
  if (form.labels?.length === 0) errors.labels = 'choose at least one label';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      dataset: form.dataset,
      method: form.method,
      labels: form.labels ?? undefined,
      epsilon,
      delta,
      shots: numbers.shots,
      teachers: numbers.teachers,
      perTeacher: numbers.perTeacher,
      topK: numbers.topK,
      maxTokens: numbers.maxTokens,
      rounds: numbers.rounds,
      ...(form.sampling === 'per-demonstration' && { sampling: form.sampling }),
      instruction: form.instruction.trim() === '' ? undefined : form.instruction.trim(),
    },
  };
}
