/**
 * Exemplar vault methods: datasets (public label set, privacy unit), records with splits,
 * labels, tags and PII findings, curation (search, filters, bulk operations, redaction,
 * hard delete, compaction), statistics for charts, and the SpamAssassin sample dataset.
 * `vault.changed` is pushed after every change.
 */
import { z } from 'zod';
import { piiFindingSchema, piiKindSchema } from '../../../core/pii/types';
import { method } from './define';

export const splitSchema = z.enum(['private', 'public', 'held-out']);
export type Split = z.infer<typeof splitSchema>;
export const taskSchema = z.enum(['classification', 'generation']);
export const privacyUnitSchema = z.enum(['record', 'subject']);

const name = z.string().trim().min(1).max(200);
const label = z.string().trim().min(1).max(200);
const tag = z.string().trim().min(1).max(100);
export const datasetRefSchema = z.union([z.number().int().positive(), name]).describe('dataset id or name');

export const datasetSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  task: taskSchema,
  labels: z.array(z.string()),
  privacyUnit: privacyUnitSchema,
  subjectCap: z.number().describe('subject-level privacy: most records sampled per subject'),
  createdAt: z.string(),
  updatedAt: z.string(),
  counts: z.object({ private: z.number(), public: z.number(), heldOut: z.number(), total: z.number() }),
});
export type DatasetDto = z.infer<typeof datasetSchema>;

export const newDatasetSchema = z
  .object({
    name,
    description: z.string().max(2000).default(''),
    task: taskSchema.default('classification'),
    labels: z.array(label).max(1000).default([]),
    privacyUnit: privacyUnitSchema.default('record'),
    subjectCap: z.number().int().min(1).max(1000).default(1),
  })
  .strict();

export const newRecordSchema = z
  .object({
    text: z.string().min(1).max(100_000),
    label: label.optional(),
    output: z.string().max(100_000).optional(),
    split: splitSchema.default('private'),
    subject: z.string().max(200).optional(),
    tags: z.array(tag).max(50).default([]),
  })
  .strict();
export type NewRecord = z.output<typeof newRecordSchema>;

export const recordFilterSchema = z
  .object({
    search: z.string().max(500).optional().describe('full-text search (FTS5 words; prefix* allowed)'),
    labels: z.array(z.string()).optional().describe('"" matches records without a label'),
    splits: z.array(splitSchema).optional(),
    pii: z.array(piiKindSchema.or(z.literal('any'))).optional(),
    tags: z.array(tag).optional(),
    subjects: z.array(z.string().min(1).max(200)).min(1).max(10_000).optional().describe('records of these data subjects (subject ids)'),
  })
  .strict();
export type RecordFilter = z.infer<typeof recordFilterSchema>;

export const recordRowSchema = z.object({
  id: z.number(),
  text: z.string(),
  label: z.string().nullable(),
  output: z.string().nullable(),
  split: splitSchema,
  subject: z.string().nullable(),
  tags: z.array(z.string()),
  pii: z.array(piiFindingSchema),
  updatedAt: z.string(),
});
export type RecordRow = z.infer<typeof recordRowSchema>;

export const historyEntrySchema = z.object({ at: z.string(), action: z.string(), detail: z.record(z.string(), z.unknown()) });

export const bulkActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('move'), split: splitSchema }),
  z.object({ kind: z.literal('tag'), tag }),
  z.object({ kind: z.literal('untag'), tag }),
  z.object({ kind: z.literal('label'), label: label.nullable() }),
  z.object({ kind: z.literal('delete') }),
]);

const target = z.union([z.object({ ids: z.array(z.number().int().positive()).min(1).max(100_000) }).strict(), z.object({ filter: recordFilterSchema }).strict()]);

export const statsSchema = z.object({
  splits: z.object({ private: z.number(), public: z.number(), heldOut: z.number() }),
  labels: z.array(z.object({ label: z.string().nullable(), private: z.number(), public: z.number(), heldOut: z.number() })),
  pii: z.array(z.object({ kind: piiKindSchema, records: z.number() })),
  tags: z.array(z.object({ tag: z.string(), records: z.number() })),
  subjects: z.number().describe('distinct subject ids in the private split'),
});

const dataset = z.object({ dataset: datasetRefSchema }).strict();

/** The result of a `vault.scanPii` job: what the rescan found and how many records it changed. */
export const piiRescanReportSchema = z.object({
  datasetId: z.number(),
  records: z.number().describe('records scanned'),
  changed: z.number().describe('records whose findings changed (each gets a "pii-rescan" history entry)'),
  pii: statsSchema.shape.pii.describe('records with each kind of finding after the rescan'),
  seconds: z.number(),
});
export type PiiRescanReport = z.infer<typeof piiRescanReportSchema>;

export const vaultMethods = {
  'vault.listDatasets': method(z.object({}).strict(), z.array(datasetSchema), 'Datasets with their split sizes'),
  'vault.createDataset': method(newDatasetSchema, datasetSchema, 'Create an empty dataset'),
  'vault.updateDataset': method(
    z.object({ dataset: datasetRefSchema, name: name.optional(), description: z.string().max(2000).optional(), labels: z.array(label).max(1000).optional(), privacyUnit: privacyUnitSchema.optional(), subjectCap: z.number().int().min(1).max(1000).optional() }).strict(),
    datasetSchema,
    'Rename or describe a dataset, change its label set or privacy unit',
  ),
  'vault.deleteDataset': method(
    z.object({ dataset: datasetRefSchema, compact: z.boolean().default(true) }).strict(),
    z.object({ deletedRecords: z.number(), datasetRemoved: z.boolean(), compacted: z.boolean() }),
    'Hard-delete a dataset and its records (kept as an empty shell when its ledger has entries)',
  ),
  'vault.stats': method(dataset, statsSchema, 'Split sizes, label distribution, PII and tag counts'),
  'vault.records': method(
    z.object({ dataset: datasetRefSchema, filter: recordFilterSchema.default({}), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(1000).default(100), order: z.enum(['id', 'label', 'split', 'updated']).default('id'), descending: z.boolean().default(false) }).strict(),
    z.object({ total: z.number(), rows: z.array(recordRowSchema) }),
    'One page of records matching a filter, with the total count',
  ),
  'vault.record': method(z.object({ id: z.number().int().positive() }).strict(), recordRowSchema.extend({ history: z.array(historyEntrySchema) }), 'One record with its PII spans and history'),
  'vault.addRecords': method(
    z.object({ dataset: datasetRefSchema, records: z.array(newRecordSchema).min(1).max(10_000) }).strict(),
    z.object({ added: z.number(), duplicates: z.number() }),
    'Add records (duplicates of existing text are skipped)',
  ),
  'vault.updateRecord': method(
    z.object({ id: z.number().int().positive(), label: label.nullable().optional(), split: splitSchema.optional(), tags: z.array(tag).max(50).optional() }).strict(),
    recordRowSchema,
    'Edit one record: label (checked against the label set), split, tags',
  ),
  'vault.bulk': method(z.object({ dataset: datasetRefSchema, target, action: bulkActionSchema }).strict(), z.object({ affected: z.number() }), 'Move, tag, untag, relabel or delete many records'),
  'vault.redact': method(
    z
      .object({
        id: z.number().int().positive(),
        kinds: z.array(piiKindSchema).optional().describe('default: every finding'),
        spans: z.array(piiFindingSchema.pick({ start: true, end: true })).min(1).max(1000).optional().describe('only these findings, by their span in `pii`'),
      })
      .strict(),
    recordRowSchema,
    'Replace PII spans (all, some kinds, or chosen spans) with typed placeholders like [EMAIL] (recorded in the history)',
  ),
  'vault.scanPii': method(
    dataset,
    z.object({ jobId: z.string() }),
    'Rescan every record of a dataset for PII with the current detectors and name list, as a job (progress, cancel; all or nothing); the result is a PII rescan report',
  ),
  'vault.compact': method(z.object({}).strict(), z.object({ bytesBefore: z.number(), bytesAfter: z.number() }), 'VACUUM and truncate the WAL so deleted text does not linger on disk'),
  'vault.createSample': method(
    z
      .object({
        kind: z.enum(['spam', 'clinic', 'clinic-summaries']).default('spam').describe('spam: SpamAssassin e-mails; clinic: synthetic clinic notes with canaries; clinic-summaries: synthetic notes → summaries (generation)'),
        name: name.optional().describe('default: "SpamAssassin sample" or "Clinic notes sample"'),
      })
      .strict(),
    datasetSchema,
    'Create a sample dataset: SpamAssassin e-mails (spam/ham) or synthetic clinic notes (five departments, privacy unit: subject, planted canaries); split private/public/held-out',
  ),
};

export const vaultEvents = {
  'vault.changed': z.object({ datasetId: z.number(), what: z.string() }),
};
