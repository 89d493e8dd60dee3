/**
 * N, the privacy units of a dataset's private split, as the services count it
 * (ledger/datasets.ts, privacyUnitCount): the exact N of sampling rates, prices and the Budget
 * page, budget or none. A budget's default δ is set from it only where the size is declared
 * public; otherwise from a noisy count charged with the budget (ledgerService.ts).
 */
import { z } from 'zod';
import { method } from './define';
import { privacyUnitSchema } from './vault';

export const privacyUnitsSchema = z.object({
  datasetId: z.number().int().positive(),
  dataset: z.string(),
  unit: privacyUnitSchema.describe('what N counts: records, or subjects (a record without a subject id is its own subject)'),
  n: z.number().int().positive().nullable().describe('N; null when the private split is empty'),
});
export type PrivacyUnitsDto = z.infer<typeof privacyUnitsSchema>;

export const privacyUnitMethods = {
  'budget.privacyUnits': method(
    z.object({ dataset: z.union([z.number().int().positive(), z.string().min(1).max(256)]).describe('dataset id or name') }).strict(),
    privacyUnitsSchema,
    'N, the privacy units of the private split (records or subjects), exact, as sampling rates count it',
  ),
};
