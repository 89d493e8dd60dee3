/**
 * The Augment form's state (text fields as typed) and its validation into an augment.plan /
 * augment.start request by the shared zod schema (electron/shared/api/augmentation.ts): the
 * defaults and bounds are the service's, each broken field gets the rule it breaks in words.
 */
import { augmentRequestSchema, type AugmentRequest } from '../../../../electron/shared/api/augmentation';
import { numberRule } from '../../components/numberRule';
import type { Checked } from '../../components/usePricedJob';

export interface AugmentFormState {
  dataset: string;
  epsilon: string;
  /** '' = the budget's δ. */
  delta: string;
  /** M: new public examples to write. */
  examples: string;
  depth: string;
  maxTokens: string;
}

type NumberField = Exclude<keyof AugmentFormState, 'dataset'>;
export type AugmentFormErrors = Partial<Record<keyof AugmentFormState, string>>;

/** The schema's defaults, as the form shows them. */
const defaults = augmentRequestSchema.parse({ dataset: '-' });
export const initialAugmentForm: AugmentFormState = {
  dataset: '', epsilon: String(defaults.epsilon), delta: '', examples: String(defaults.examples), depth: String(defaults.depth), maxTokens: String(defaults.maxTokens),
};

const NUMBER_FIELDS: readonly NumberField[] = ['epsilon', 'delta', 'examples', 'depth', 'maxTokens'];

/** A typed number: NaN for an empty or non-numeric text (the schema then names the rule). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

export function toAugmentRequest(form: AugmentFormState): Checked<AugmentRequest, AugmentFormErrors> {
  const input: Record<string, unknown> = { dataset: form.dataset };
  for (const key of NUMBER_FIELDS) if (key !== 'delta' || form.delta.trim() !== '') input[key] = numberOf(form[key]);
  const parsed = augmentRequestSchema.safeParse(input);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: AugmentFormErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof AugmentFormState;
    errors[key] ??= key === 'dataset' ? 'choose a dataset' : `${numberRule(augmentRequestSchema.shape[key])}${key === 'delta' ? ' (empty: the budget’s δ)' : ''}`;
  }
  return { ok: false, errors };
}
