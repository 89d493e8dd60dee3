/**
 * Looking at a file before importing it: path checks, encoding verdict, format and
 * delimiter detection (or the caller's choice), the columns, the first rows as the readers
 * see them (values clipped for display) and a suggested mapping. Reads only the start of
 * the file.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Delimiter, EncodingVerdict, ImportFormat, ImportPreview } from '../../../shared/api/vaultFiles';
import { csvHeader } from './csvReader';
import { detectDelimiter, detectFormat, suggestMapping } from './detect';
import { hasUtf8Bom, isRefused, sniffEncoding } from './encoding';
import { formatReader, readChunks, readHead } from './fileSource';
import { validateImportPath } from './filePaths';
import { ImportError, type SourceValues } from './importTypes';

const PREVIEW_ROWS = 20;
const PREVIEW_CHARS = 2000;

export interface SniffedFile {
  file: { path: string; size: number };
  encoding: EncodingVerdict;
  bom: boolean;
  format: ImportFormat;
  delimiter: Delimiter | null;
  /** The decoded start of the file (BOM removed). */
  head: string;
}

export async function sniffFile(path: string, format?: ImportFormat, delimiter?: Delimiter): Promise<SniffedFile> {
  const file = await validateImportPath(path);
  if (file.size === 0) throw new ImportError('the file is empty');
  const bytes = await readHead(file.path);
  const head = new StringDecoder('utf8').write(bytes).replace(/^\uFEFF/, '');
  const chosen = format ?? detectFormat(file.path, head);
  return {
    file,
    encoding: sniffEncoding(bytes, bytes.length === file.size),
    bom: hasUtf8Bom(bytes),
    format: chosen,
    delimiter: chosen === 'csv' ? (delimiter ?? detectDelimiter(head, file.path)) : null,
    head,
  };
}

const clip = (s: string) => (s.length > PREVIEW_CHARS ? `${s.slice(0, PREVIEW_CHARS)}…` : s);

function display(values: SourceValues): Record<string, string | null> {
  if (typeof values === 'string') return { text: clip(values) };
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === null || v === undefined ? null : clip(typeof v === 'string' ? v : JSON.stringify(v))]));
}

export async function previewImport(input: { path: string; format?: ImportFormat; delimiter?: Delimiter }): Promise<ImportPreview> {
  const sniffed = await sniffFile(input.path, input.format, input.delimiter);
  const { file, format, delimiter, encoding } = sniffed;
  const preview: ImportPreview = { path: file.path, size: file.size, format, delimiter, encoding, columns: [], rows: [], badRows: [], suggestedMapping: {} };
  if (isRefused(encoding)) return preview;
  for await (const item of formatReader(format, delimiter)(readChunks(file.path))) {
    if ('bad' in item) preview.badRows.push(item.bad);
    else preview.rows.push({ line: item.line, values: display(item.values) });
    if (preview.rows.length + preview.badRows.length >= PREVIEW_ROWS) break;
  }
  preview.columns = format === 'csv' ? csvHeader(sniffed.head, delimiter!) : [...new Set(preview.rows.flatMap((r) => Object.keys(r.values)))];
  preview.suggestedMapping = suggestMapping(preview.columns);
  return preview;
}
