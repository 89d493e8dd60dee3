/**
 * Shared vocabulary of the file importers: the limits, the items a format reader yields
 * (a row of named values, or a bad row with its line number), and the error that stops an
 * import with one clear sentence. Reasons never quote the file's content.
 */
import type { BadRow } from '../../../shared/api/vaultFiles';
import { VaultError } from '../datasets';

/** Longest accepted text or output, in UTF-16 code units (the records schema's limit). */
export const MAX_TEXT_CHARS = 100_000;
/** Longest CSV record / JSON line / JSON element kept in memory; longer ones are bad rows. */
export const MAX_RECORD_CHARS = 1_000_000;

export class ImportError extends VaultError {}

/** One row as read from the file: values by column or field name, or a plain string (txt, JSON strings). */
export type SourceValues = Readonly<Record<string, unknown>> | string;

export type SourceItem =
  | { line: number; values: SourceValues }
  /** `fatal`: the reader cannot go on after this row (the rest of the file is not read). */
  | { line: number; bad: BadRow; fatal?: boolean };

export const badRow = (line: number, code: BadRow['code'], reason: string): { line: number; bad: BadRow } => ({ line, bad: { line, code, reason } });

/** A format reader: decoded input in, items out, in file order. */
export type FormatReader = (chunks: AsyncIterable<Buffer>) => AsyncGenerator<SourceItem>;
