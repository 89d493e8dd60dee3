/**
 * Export of a dataset (optionally filtered) for the analyst's own use: CSV (RFC 4180, CRLF,
 * header text,label,output,split,subject,tags with tags joined by ";") or JSONL (one object
 * per record, tags as an array). Records are read in id order, a page at a time, and written
 * owner-only and atomically (see import/filePaths.ts): memory stays flat for any size. The
 * CSV re-imports with `--text text --label label --output output --subject subject --split-column split`.
 */
import type { FileHandle } from 'node:fs/promises';
import type { DatasetDto, RecordFilter } from '../../shared/api/vault';
import type { Params, Queryable } from '../db/database';
import { writeFileAtomically } from './import/filePaths';
import { filterSql } from './recordFilter';
import { datasetIdSpan } from './records';

const PAGE = 1000;
const COLUMNS = ['text', 'label', 'output', 'split', 'subject', 'tags'] as const;

interface ExportRow {
  id: number;
  text: string;
  label: string | null;
  output: string | null;
  split: string;
  subject: string | null;
  tags: string;
}

export type ExportFormat = 'csv' | 'jsonl';

const csvField = (value: string | null) => (value === null ? '' : /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function line(format: ExportFormat, row: ExportRow): string {
  const tags = JSON.parse(row.tags) as string[];
  if (format === 'jsonl') {
    const { text, label, output, split, subject } = row;
    return `${JSON.stringify({ text, label, output, split, subject, tags })}\n`;
  }
  return `${[row.text, row.label, row.output, row.split, row.subject, tags.join(';')].map(csvField).join(',')}\r\n`;
}

/** One page of an export: the filtered records in ($after, $last], in id order, read by a rowid range (filterSql's inIdOrder, datasetIdSpan). */
export function exportPageSql(datasetId: number, filter: RecordFilter): { sql: string; params: Params } {
  const { where, params } = filterSql(datasetId, filter, { inIdOrder: true });
  return {
    sql: `SELECT r.id, r.text, r.label, r.output, r.split, r.subject_id AS subject, r.tags_json AS tags
    FROM records r WHERE ${where} AND r.id > $after AND r.id <= $last ORDER BY r.id LIMIT ${PAGE}`,
    params,
  };
}

export async function exportDataset(
  db: Queryable,
  dataset: DatasetDto,
  options: { path: string; format: ExportFormat; overwrite: boolean; filter: RecordFilter },
): Promise<{ path: string; format: ExportFormat; records: number; bytes: number }> {
  const { sql: select, params } = exportPageSql(dataset.id, options.filter);
  const { first, last } = await datasetIdSpan(db, dataset.id);
  let records = 0;
  const fill = async (handle: FileHandle) => {
    if (options.format === 'csv') await handle.write(`${COLUMNS.join(',')}\r\n`);
    for (let after = (first ?? 1) - 1; first !== null; ) {
      const rows = await db.all<ExportRow>(select, { ...params, after, last });
      if (rows.length === 0) return;
      await handle.write(rows.map((row) => line(options.format, row)).join(''));
      records += rows.length;
      after = rows[rows.length - 1].id;
    }
  };
  const written = await writeFileAtomically(options.path, { overwrite: options.overwrite, extension: `.${options.format}` }, fill);
  return { ...written, format: options.format, records };
}
