/**
 * Public examples for public-data-assisted answering (issue 15): a dataset's public examples
 * are its own public split, or — when it has none — the public split of another dataset of the
 * vault the analyst names (out-of-distribution public data). Only that dataset's public split
 * is ever read.
 */
import { z } from 'zod';
import { method } from './define';

export const publicSourceSchema = z.object({
  dataset: z.string(),
  /** The other dataset whose public split serves, or null (in-domain only). */
  from: z.string().nullable(),
  /** Records of the dataset's own public split. */
  inDomain: z.number(),
  /** Records of `from`'s public split (null without a source). */
  fromRecords: z.number().nullable(),
  /** The public examples answering uses: in-domain first, else `from`'s; 'none' when neither has any. */
  uses: z.enum(['in-domain', 'other-dataset', 'none']),
});
export type PublicSourceDto = z.infer<typeof publicSourceSchema>;

export const publicSourceMethods = {
  'publicSource.get': method(z.object({ dataset: z.string().min(1) }).strict(), publicSourceSchema, "Where the dataset's public examples come from"),
  'publicSource.set': method(
    z.object({ dataset: z.string().min(1), from: z.string().min(1).nullable() }).strict(),
    publicSourceSchema,
    'Use the public split of another dataset as public examples (null: in-domain only)',
  ),
};
