/**
 * The request fields of public-data-assisted answering (issue 15), spread into the answering
 * request (answering.ts): semantic group aggregation's settings and the keyword methods' use of
 * public data. All are public settings.
 */
import { z } from 'zod';
import { DEFAULT_SGA_DEPTH } from '../../../core/planning/sgaEvent';

export const sgaSelectionSchema = z.enum(['model', 'nearest']);

/** Deepest DPM tree offered (2^6 = 64 clusters; core/icl/answering/sga/semanticGroups.ts allows no more). */
export const MAX_SGA_DEPTH = 6;

export const sgaRequestFields = {
  sgaDepth: z.number().int().min(1).max(MAX_SGA_DEPTH).default(DEFAULT_SGA_DEPTH).describe('sga: split levels of the private clustering (up to 2^depth clusters)'),
  sgaCandidates: z.number().int().min(1).max(16).default(3).describe('sga: candidates k, the public answers nearest to the k largest noisy clusters'),
  sgaSelection: sgaSelectionSchema.default('model').describe('sga: the model picks among the candidates, or the nearest (largest cluster) is released'),
  publicData: z.boolean().optional().describe('keyword, ptr: add the public ensemble’s answers to the universe and final prompt (default: on when the dataset has public examples)'),
};

/** The noise of an sga plan: the noise parameter ρ of each query's clustering (sized as a zCDP budget, charged as its event; core/planning/sgaEvent.ts). */
export const sgaNoiseSchema = z.object({ kind: z.literal('sga'), rho: z.number() });
