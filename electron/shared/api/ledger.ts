/**
 * Privacy ledger and budget methods: a budget per dataset, the hash-chained entries,
 * what is spent (PLD, RDP cross-check) and left, external releases, verification,
 * export and the printable report. `ledger.changed` is pushed whenever an entry is appended.
 */
import { z } from 'zod';
import { privacyEventSchema } from '../../../core/accounting/events';
import { method } from './define';

const datasetRef = z.union([z.number().int().positive(), z.string().min(1).max(256)]).describe('dataset id or name');
const hash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * An ε bound, or the string "Infinity" where no finite ε exists at that δ: a release charged
 * as (ε, δ₀)-DP bounds nothing at δ < δ₀. JSON has no Infinity (it would print null, which
 * reads as "unknown"), so the value is spelled out; Number(x) gives the number either way.
 */
export const epsilonBoundSchema = z.union([z.number(), z.literal('Infinity')]);
export type EpsilonBound = z.infer<typeof epsilonBoundSchema>;
/** A number as an ε bound: +∞ becomes "Infinity". */
export const toEpsilonBound = (x: number): EpsilonBound => (x === Infinity ? 'Infinity' : x);
/** An ε bound as a number ("Infinity" → +∞). */
export const epsilonNumber = (x: EpsilonBound): number => (x === 'Infinity' ? Infinity : x);

const bounds = z.object({ lower: epsilonBoundSchema, estimate: epsilonBoundSchema, upper: epsilonBoundSchema });
export type EpsilonBoundsDto = z.infer<typeof bounds>;

/** Release parameters: numbers, flags and short public strings only, so no private text fits. */
export const ledgerParametersSchema = z.record(
  z.string().max(64),
  z.union([z.number(), z.boolean(), z.null(), z.string().max(200), z.array(z.union([z.number(), z.string().max(200)])).max(64)]),
);

export const reservationStatusSchema = z.enum(['reserved', 'committed', 'orphaned']);

export const ledgerEntrySchema = z.object({
  id: z.number(),
  datasetId: z.number(),
  seq: z.number(),
  type: z.enum(['budget', 'reserve', 'commit']),
  eventJson: z.string().nullable().describe('the stored canonical JSON (hashed as is)'),
  epsilonCap: z.number().nullable(),
  delta: z.number().nullable(),
  spentEpsilon: z.number().nullable().describe('reserve: ε upper bound of all reservations up to this one'),
  accountant: z.string().nullable(),
  parametersJson: z.string(),
  purpose: z.string(),
  jobId: z.string().nullable(),
  actor: z.string(),
  createdAt: z.string(),
  reservationId: z.number().nullable(),
  outputHash: z.string().nullable(),
  prevHash: z.string(),
  entryHash: z.string(),
  event: privacyEventSchema.nullable(),
  parameters: z.record(z.string(), z.unknown()),
  status: reservationStatusSchema.nullable(),
  statusText: z.string().nullable(),
  commitId: z.number().nullable(),
});
export type LedgerEntryDto = z.infer<typeof ledgerEntrySchema>;

export const budgetSchema = z.object({
  datasetId: z.number(),
  dataset: z.string(),
  epsilon: z.number().describe('ε cap'),
  delta: z.number(),
  setAt: z.string(),
  entryId: z.number(),
  privacyUnits: z.number().nullable().describe('N, when the vault can count it'),
});
export type BudgetDto = z.infer<typeof budgetSchema>;

export const curvePointSchema = z.object({
  delta: z.number(),
  epsilon: epsilonBoundSchema.describe('ε upper bound at this δ; "Infinity": no finite ε (a charge\'s own δ₀ is above this δ)'),
});
export type CurvePointDto = z.infer<typeof curvePointSchema>;

export const ledgerSummarySchema = z.object({
  dataset: z.object({ id: z.number(), name: z.string() }),
  budget: budgetSchema.nullable(),
  spent: z
    .object({ accountant: z.enum(['pld', 'rdp']), epsilon: bounds, rdp: bounds.nullable() })
    .describe('ε at the budget\'s δ; "Infinity" where no finite ε exists there (a release\'s δ₀ above the budget\'s δ)'),
  remainingEpsilon: z.number().nullable().describe('cap − spent upper bound (ε is not additive: use ledger.remaining for counts)'),
  curve: z.array(curvePointSchema).describe('ε(δ) upper bounds of everything spent'),
  reservations: z.object({ reserved: z.number(), committed: z.number(), orphaned: z.number() }),
  entries: z.number(),
  head: z.object({ seq: z.number(), hash }),
});
export type LedgerSummary = z.infer<typeof ledgerSummarySchema>;

export const verificationSchema = z.object({
  ok: z.boolean(),
  problems: z.array(
    z.object({ datasetId: z.number(), entryId: z.number().nullable(), seq: z.number().nullable(), field: z.string(), message: z.string() }),
  ),
  chains: z.array(
    z.object({
      datasetId: z.number(),
      entries: z.number(),
      head: z.string(),
      recordedEpsilon: z.number().nullable(),
      recomputedEpsilon: epsilonBoundSchema.nullable(),
    }),
  ),
});
export type VerificationDto = z.infer<typeof verificationSchema>;

export const remainingSchema = z.object({
  count: z.number().describe('how many more releases of this kind fit under the cap'),
  atLimit: z.boolean().describe('the search stopped at its limit: at least `count` fit'),
});

const byDataset = z.object({ dataset: datasetRef }).strict();

export const ledgerMethods = {
  'budget.get': method(byDataset, budgetSchema.nullable(), 'The budget in force for a dataset (null when none is set)'),
  'budget.set': method(
    z
      .object({
        dataset: datasetRef,
        epsilon: z.number().finite().positive(),
        delta: z.number().gt(0).lt(1).optional().describe('default min(1/(10·N), 1e-5), N = privacy units'),
        purpose: z.string().max(500).optional(),
      })
      .strict(),
    z.object({ budget: budgetSchema, warnings: z.array(z.string()) }),
    'Set or change the budget (itself a ledger entry)',
  ),
  'ledger.summary': method(byDataset, ledgerSummarySchema, 'ε spent (PLD, RDP cross-check) against the cap, ε(δ) curve, chain head'),
  'ledger.entries': method(byDataset, z.array(ledgerEntrySchema), "A dataset's entries in chain order, with derived status"),
  'ledger.record': method(
    z
      .object({
        dataset: datasetRef,
        event: privacyEventSchema,
        purpose: z.string().trim().min(1, 'say what was released (a purpose of spaces only says nothing)').max(500),
        parameters: ledgerParametersSchema.optional(),
      })
      .strict(),
    z.object({ reservation: ledgerEntrySchema, commit: ledgerEntrySchema }),
    'Charge a release made outside Veil (reserve, then commit)',
  ),
  'ledger.remaining': method(
    z.object({ dataset: datasetRef, event: privacyEventSchema }).strict(),
    remainingSchema,
    'How many more releases of this kind fit in what is left',
  ),
  'ledger.verify': method(
    z.object({ dataset: datasetRef.optional(), expectedHead: hash.optional(), anchorCopy: z.string().max(16 * 1024 * 1024).optional().describe('a copy of the anchor file kept elsewhere') }).strict(),
    verificationSchema,
    'Recompute the hash chains and the totals; names the first bad entry',
  ),
  'ledger.report': method(
    byDataset,
    z.object({ html: z.string(), fileName: z.string(), head: hash }),
    'A printable HTML budget report: entries, totals, ε(δ) curve, chain head',
  ),
  'ledger.anchor': method(
    z.object({ dataset: datasetRef.optional() }).strict(),
    z.object({ file: z.string(), content: z.string(), heads: z.array(z.object({ dataset: z.number(), seq: z.number(), hash, at: z.string() })) }),
    'The ledger anchor (the chain heads kept beside the database), of one dataset or all: a copy to keep elsewhere',
  ),
  'ledger.export': method(
    z.object({ dataset: datasetRef, format: z.enum(['json', 'csv']) }).strict(),
    z.object({ content: z.string(), fileName: z.string(), mimeType: z.string() }),
    'The full ledger of a dataset as JSON (verifiable offline) or CSV',
  ),
};

export const ledgerEvents = {
  'ledger.changed': z.object({
    datasetId: z.number(),
    entryId: z.number(),
    type: z.enum(['budget', 'reserve', 'commit']),
    head: hash,
  }),
};
