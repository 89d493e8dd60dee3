/**
 * Vault file methods: preview and streaming import of CSV / JSONL / JSON array / plain-text
 * files into a dataset (a job whose result is an import report), and export of a dataset to
 * CSV or JSONL. Paths are absolute paths on the machine running the services. Reports carry
 * line numbers, counts and reasons — never record text. See docs/vault.md.
 */
import { z } from 'zod';
import { method } from './define';
import { datasetRefSchema, recordFilterSchema, splitSchema } from './vault';

export const importFormatSchema = z.enum(['csv', 'jsonl', 'json', 'txt']);
export type ImportFormat = z.infer<typeof importFormatSchema>;
export const delimiterSchema = z.enum([',', ';', '\t', '|']);
export type Delimiter = z.infer<typeof delimiterSchema>;
export const onBadRowSchema = z.enum(['skip', 'abort']);

const absolutePath = z.string().min(1).max(4096).describe('absolute path of a file on this machine');
const column = z.string().min(1).max(200);

export const columnMappingSchema = z
  .object({
    text: column.default('text').describe('column (CSV) or field (JSON) holding the example text; ignored for txt'),
    label: column.optional(),
    subject: column.optional(),
    split: column.optional().describe('column of private / public / held-out; without it every row gets `split`'),
    output: column.optional().describe('reference output (generation tasks)'),
  })
  .strict();
export type ColumnMapping = z.output<typeof columnMappingSchema>;

export const badRowCodeSchema = z.enum([
  'missing-text', 'text-too-long', 'label-not-in-set', 'invalid-utf8', 'invalid-split', 'invalid-field', 'malformed',
]);
export type BadRowCode = z.infer<typeof badRowCodeSchema>;
export const badRowSchema = z.object({ line: z.number().int().positive(), code: badRowCodeSchema, reason: z.string() });
export type BadRow = z.infer<typeof badRowSchema>;

export const encodingVerdictSchema = z.object({
  ok: z.boolean().describe('false: the bytes are not valid UTF-8'),
  encoding: z.enum(['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252', 'binary']),
  message: z.string(),
});
export type EncodingVerdict = z.infer<typeof encodingVerdictSchema>;

export const importReportSchema = z.object({
  importId: z.number(),
  datasetId: z.number(),
  format: importFormatSchema,
  delimiter: delimiterSchema.nullable(),
  bytes: z.number(),
  rowsRead: z.number(),
  accepted: z.number(),
  duplicates: z.object({ count: z.number(), lines: z.array(z.number()).describe('the first 1,000') }),
  badRows: z.object({ count: z.number(), rows: z.array(badRowSchema).describe('the first 1,000') }),
  encoding: encodingVerdictSchema,
  seconds: z.number(),
  alsoIn: z
    .array(z.object({ dataset: z.string(), records: z.number() }))
    .default([])
    .describe('other datasets already holding some of the imported texts (each has its own budget)'),
  randomSplit: z.enum(['csprng', 'seed']).nullable().default(null).describe('rows without a split value were split at random, drawn from the CSPRNG or from the given seed'),
  withoutSubject: z.number().default(0).describe('subject-level dataset: rows imported with no subject id (each counts as its own data subject)'),
});
export type ImportReport = z.infer<typeof importReportSchema>;

const fileInput = {
  path: absolutePath,
  format: importFormatSchema.optional().describe('default: from the extension, else from the content'),
  delimiter: delimiterSchema.optional().describe('CSV only; default: detected among , ; tab |'),
};

export const importPreviewSchema = z.object({
  path: z.string().describe('the real path'),
  size: z.number(),
  format: importFormatSchema,
  delimiter: delimiterSchema.nullable(),
  columns: z.array(z.string()).describe('CSV header, or the fields seen in the first JSON rows'),
  rows: z.array(z.object({ line: z.number(), values: z.record(z.string(), z.string().nullable()) })),
  badRows: z.array(badRowSchema).describe('rows among the first ones that could not be read'),
  encoding: encodingVerdictSchema,
  suggestedMapping: columnMappingSchema.partial(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/**
 * Rows split at random into private / public / held-out. Not a privacy mechanism (which rows
 * are public is the analyst's choice either way): the draw uses the CSPRNG, or a seed the
 * analyst gives to make the split repeatable.
 */
export const randomSplitSchema = z
  .object({
    private: z.number().min(0).max(1),
    public: z.number().min(0).max(1),
    heldOut: z.number().min(0).max(1),
    seed: z.string().min(1).max(200).optional().describe('repeatable split from this seed; default: the CSPRNG'),
  })
  .strict()
  .refine((r) => Math.abs(r.private + r.public + r.heldOut - 1) < 1e-9, { message: 'the proportions must add up to 1' });
export type RandomSplit = z.infer<typeof randomSplitSchema>;

export const importRequestSchema = z
  .object({
    dataset: datasetRefSchema,
    ...fileInput,
    mapping: columnMappingSchema.default({ text: 'text' }),
    split: splitSchema.default('private').describe('split of every row when no split column is mapped (and of rows with an empty one)'),
    onBadRow: onBadRowSchema.default('skip'),
    randomSplit: randomSplitSchema.optional().describe('split rows with no split value at random in these proportions (instead of `split`)'),
  })
  .strict();
export type ImportRequest = z.output<typeof importRequestSchema>;

export const exportFormatSchema = z.enum(['csv', 'jsonl']);

export const vaultFileMethods = {
  'vault.previewImport': method(z.object(fileInput).strict(), importPreviewSchema, 'Detect format, delimiter, columns and encoding of a file; its first 20 rows'),
  'vault.import': method(
    importRequestSchema,
    z.object({ jobId: z.string() }),
    'Import a file into a dataset as one atomic job (progress: bytes read; result: the import report)',
  ),
  'vault.export': method(
    z
      .object({
        dataset: datasetRefSchema,
        path: absolutePath,
        format: exportFormatSchema,
        overwrite: z.boolean().default(false),
        filter: recordFilterSchema.default({}),
      })
      .strict(),
    z.object({ path: z.string(), format: exportFormatSchema, records: z.number(), bytes: z.number() }),
    'Write a dataset (text, label, output, split, subject, tags) to a CSV or JSONL file (owner-only)',
  ),
};
