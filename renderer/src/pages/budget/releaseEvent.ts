/**
 * The external-release dialog's event: the common case built from a small form (a Gaussian,
 * Laplace or pure-ε mechanism, optionally Poisson-subsampled, repeated `count` times), or
 * any privacy event pasted as JSON and checked against the ledger's own schema.
 */
import { composed, gaussian, laplace, poissonSampled, privacyEventSchema, pureDp, type PrivacyEvent } from '../../../../core/accounting/events';

export type ReleaseMechanism = 'gaussian' | 'laplace' | 'pure';

export interface ReleaseFormState {
  mechanism: ReleaseMechanism;
  /** σ (Gaussian), scale b (Laplace) or ε (pure). */
  noise: string;
  sensitivity: string;
  /** Poisson sampling rate; empty: no subsampling. */
  q: string;
  count: string;
}

export const initialReleaseForm: ReleaseFormState = { mechanism: 'gaussian', noise: '', sensitivity: '1', q: '', count: '1' };

export const noiseLabel: Record<ReleaseMechanism, string> = {
  gaussian: 'Noise σ',
  laplace: 'Scale b',
  pure: 'ε per release',
};

export type EventResult = { ok: true; event: PrivacyEvent } | { ok: false; errors: Partial<Record<keyof ReleaseFormState | 'json', string>> };

const positive = (text: string) => text.trim() !== '' && Number(text) > 0 && Number.isFinite(Number(text));

export function eventFromForm(form: ReleaseFormState): EventResult {
  const errors: Partial<Record<keyof ReleaseFormState, string>> = {};
  if (!positive(form.noise)) errors.noise = 'a number > 0';
  if (form.mechanism !== 'pure' && !positive(form.sensitivity)) errors.sensitivity = 'a number > 0';
  const q = form.q.trim() === '' ? undefined : Number(form.q);
  if (q !== undefined && !(q > 0 && q <= 1)) errors.q = 'in (0, 1]; empty: no subsampling';
  const count = Number(form.count);
  if (!/^\d+$/.test(form.count.trim()) || count < 1 || count > 1_000_000) errors.count = 'a whole number from 1 to 1,000,000';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const noise = Number(form.noise);
  const sensitivity = Number(form.sensitivity);
  let event = form.mechanism === 'gaussian' ? gaussian(noise, sensitivity) : form.mechanism === 'laplace' ? laplace(noise, sensitivity) : pureDp(noise);
  if (q !== undefined) event = poissonSampled(q, event);
  return { ok: true, event: count > 1 ? composed(event, count) : event };
}

/** A pasted event: JSON syntax first, then the schema, naming the first bad field. */
export function eventFromJson(text: string): EventResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: { json: `not JSON: ${err instanceof Error ? err.message : String(err)}` } };
  }
  const parsed = privacyEventSchema.safeParse(json);
  if (parsed.success) return { ok: true, event: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, errors: { json: `not a privacy event: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}` } };
}
