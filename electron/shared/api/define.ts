/**
 * Building blocks of the API contract: a method is a zod input schema, a zod output
 * schema and a one-line description. The preload, the bridge and the CLI all derive from it.
 */
import type { z } from 'zod';

export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  description: string;
}

export function method<I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  description: string,
): MethodSpec<I, O> {
  return { input, output, description };
}
