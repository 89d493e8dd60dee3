/**
 * A dataset's setting "size is public" (issue 20): off by default, pool sizes are released
 * only as charged DP counts; on, the analyst declares them public and they are used exactly
 * (stated in each charge's parameters and in the certificate).
 */
import { z } from 'zod';
import { method } from './define';

const sizeSetting = z.object({ dataset: z.string(), sizePublic: z.boolean() });

export const sizeMethods = {
  'sizes.get': method(z.object({ dataset: z.string().min(1) }).strict(), sizeSetting, 'Whether the dataset\'s size is declared public'),
  'sizes.set': method(z.object({ dataset: z.string().min(1), sizePublic: z.boolean() }).strict(), sizeSetting, 'Declare the dataset\'s size public, or private (the default: noisy, charged counts)'),
};
