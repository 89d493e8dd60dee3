/**
 * Privacy events: plain, JSON-serialisable descriptions of what a release cost.
 * Mechanisms produce them, the ledger stores them, accountants turn them into (ε, δ).
 *
 * Neighbouring relation: 'add-remove' (add or remove one privacy unit; default) or
 * 'replace-one'. Sensitivities are stated under the event's relation.
 *
 * 'discrete-gaussian' is its own kind (sensitivity: the ℓ2 norm of the integer change): its exact
 * δ(ε) can lie above the continuous Gaussian's (Δ = 1, σ ≤ 1), so it must never be accounted as a
 * 'gaussian' event by PLD (see rdp/curve.ts).
 */
import { z } from 'zod';

export const neighbouringSchema = z.enum(['add-remove', 'replace-one']);
export type Neighbouring = z.infer<typeof neighbouringSchema>;

const positive = z.number().finite().positive();
const nonNegative = z.number().finite().nonnegative();

export type PrivacyEvent =
  | { kind: 'gaussian'; sigma: number; sensitivity: number; neighbouring: Neighbouring }
  | { kind: 'discrete-gaussian'; sigma: number; sensitivity: number; neighbouring: Neighbouring }
  | { kind: 'laplace'; scale: number; sensitivity: number; neighbouring: Neighbouring }
  | { kind: 'pure'; epsilon: number; neighbouring: Neighbouring }
  | { kind: 'approx'; epsilon: number; delta: number; neighbouring: Neighbouring }
  | { kind: 'poisson-sampled'; q: number; event: PrivacyEvent; neighbouring: Neighbouring }
  | {
      kind: 'sampled-without-replacement';
      sampleSize: number;
      populationSize: number;
      event: PrivacyEvent;
      neighbouring: Neighbouring;
    }
  | { kind: 'composed'; event: PrivacyEvent; count: number; neighbouring: Neighbouring }
  | { kind: 'sequence'; events: PrivacyEvent[]; neighbouring: Neighbouring };

const relation = neighbouringSchema.default('add-remove');

/** zod schema for parsing events from JSON (ledger rows, CLI files). */
export const privacyEventSchema: z.ZodType<PrivacyEvent, unknown> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('gaussian'), sigma: positive, sensitivity: positive, neighbouring: relation }),
    z.object({ kind: z.literal('discrete-gaussian'), sigma: positive, sensitivity: positive, neighbouring: relation }),
    z.object({ kind: z.literal('laplace'), scale: positive, sensitivity: positive, neighbouring: relation }),
    z.object({ kind: z.literal('pure'), epsilon: nonNegative, neighbouring: relation }),
    z.object({
      kind: z.literal('approx'),
      epsilon: nonNegative,
      delta: z.number().min(0).max(1),
      neighbouring: relation,
    }),
    z.object({
      kind: z.literal('poisson-sampled'),
      q: z.number().gt(0).max(1),
      event: privacyEventSchema,
      neighbouring: relation,
    }),
    z
      .object({
        kind: z.literal('sampled-without-replacement'),
        sampleSize: z.number().int().positive(),
        populationSize: z.number().int().positive(),
        event: privacyEventSchema,
        neighbouring: neighbouringSchema.default('replace-one'),
      })
      .refine((e) => e.sampleSize <= e.populationSize, 'sampleSize must not exceed populationSize'),
    z.object({
      kind: z.literal('composed'),
      event: privacyEventSchema,
      count: z.number().int().nonnegative(),
      neighbouring: relation,
    }),
    z.object({ kind: z.literal('sequence'), events: z.array(privacyEventSchema), neighbouring: relation }),
  ]),
);

/** Parse and validate an event (throws a ZodError naming the bad field). */
export function parsePrivacyEvent(json: unknown): PrivacyEvent {
  return privacyEventSchema.parse(json);
}

// Constructors with the default relation (add/remove one unit).
export const gaussian = (sigma: number, sensitivity = 1): PrivacyEvent => ({
  kind: 'gaussian', sigma, sensitivity, neighbouring: 'add-remove',
});
/** Discrete Gaussian noise N_ℤ(0, σ²) on an integer query of ℓ2 sensitivity Δ (accounted by RDP). */
export const discreteGaussian = (sigma: number, sensitivity = 1): PrivacyEvent => ({
  kind: 'discrete-gaussian', sigma, sensitivity, neighbouring: 'add-remove',
});
export const laplace = (scale: number, sensitivity = 1): PrivacyEvent => ({
  kind: 'laplace', scale, sensitivity, neighbouring: 'add-remove',
});
export const pureDp = (epsilon: number): PrivacyEvent => ({ kind: 'pure', epsilon, neighbouring: 'add-remove' });
export const approxDp = (epsilon: number, delta: number): PrivacyEvent => ({
  kind: 'approx', epsilon, delta, neighbouring: 'add-remove',
});
export const poissonSampled = (q: number, event: PrivacyEvent): PrivacyEvent => ({
  kind: 'poisson-sampled', q, event, neighbouring: 'add-remove',
});
export const sampledWithoutReplacement = (
  sampleSize: number, populationSize: number, event: PrivacyEvent,
): PrivacyEvent => ({ kind: 'sampled-without-replacement', sampleSize, populationSize, event, neighbouring: 'replace-one' });
export const composed = (event: PrivacyEvent, count: number): PrivacyEvent => ({
  kind: 'composed', event, count, neighbouring: event.neighbouring,
});
export const sequence = (events: PrivacyEvent[]): PrivacyEvent => ({
  kind: 'sequence', events, neighbouring: events[0]?.neighbouring ?? 'add-remove',
});
