/** A PII finding: what kind, and where in the record's text (UTF-16 offsets, end exclusive). */
import { z } from 'zod';

export const piiKinds = ['email', 'phone', 'credit-card', 'iban', 'national-id', 'ip-address', 'date-of-birth', 'person-name'] as const;
export const piiKindSchema = z.enum(piiKinds);
export type PiiKind = z.infer<typeof piiKindSchema>;

export const piiFindingSchema = z.object({ kind: piiKindSchema, start: z.number().int().nonnegative(), end: z.number().int().positive() });
export type PiiFinding = z.infer<typeof piiFindingSchema>;

/** The placeholder a redaction writes in place of a span, e.g. [EMAIL]. */
export const redactionPlaceholder = (kind: PiiKind): string => `[${kind.toUpperCase().replace(/-/g, '_')}]`;
