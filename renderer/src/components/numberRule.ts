/**
 * The rule a number field of a shared zod request schema states, in words ("a whole number from
 * 1 to 500", "a number above 0, at most 10"), read from the schema itself so the form and the
 * service cannot disagree. Bounds are probed with the schema: `positive()` excludes 0.
 */
import { z } from 'zod';

function numberSchema(schema: z.ZodType): z.ZodNumber | null {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodNumber ? inner : null;
}

export function numberRule(schema: z.ZodType): string {
  const number = numberSchema(schema);
  if (!number) return 'a number';
  const what = number.isInt ? 'a whole number' : 'a number';
  const [min, max] = [number.minValue, number.maxValue].map((x) => (x !== null && Number.isFinite(x) && Math.abs(x) < Number.MAX_SAFE_INTEGER ? x : null));
  const holds = (x: number) => number.safeParse(x).success;
  if (min !== null && max !== null && holds(min) && holds(max)) return `${what} from ${min} to ${max}`;
  const low = min === null ? null : holds(min) ? `from ${min}` : `above ${min}`;
  const high = max === null ? null : holds(max) ? `at most ${max}` : `below ${max}`;
  return [what, [low, high].filter(Boolean).join(', ')].filter(Boolean).join(' ');
}
