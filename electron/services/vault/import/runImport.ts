/**
 * An import from start to end. `prepareImport` checks everything that can be checked before
 * the job starts (path, encoding, format, dataset, mapping against the CSV header) and
 * throws one clear error. `runImport` is the job: it streams the file through its format
 * reader and the mapping into ONE transaction on a connection of its own — the imports row,
 * every accepted record, the report — so a cancel, an abort on a bad row, a crash or a
 * killed process leaves all of the import or none of it (exclusiveWrite.ts).
 */
import { cryptoRandom } from '../../../../core/random/cryptoRandom';
import { seededRandom } from '../../../../core/random/seededRandom';
import type { DatasetDto } from '../../../shared/api/vault';
import type { ImportReport, ImportRequest } from '../../../shared/api/vaultFiles';
import type { Queryable } from '../../db/database';
import type { JobContext } from '../../jobs/jobManager';
import { findDataset, touchDataset } from '../datasets';
import { exclusiveWrite } from '../exclusiveWrite';
import type { VaultService } from '../vaultService';
import { csvHeader } from './csvReader';
import { alsoIn } from './alsoIn';
import { isRefused, streamVerdict, Utf8Check } from './encoding';
import { formatReader, readChunks } from './fileSource';
import { ImportError } from './importTypes';
import { createImport, finishImport, RecordWriter } from './importWriter';
import { ReportBuilder } from './importReport';
import { checkMapping, isProblem, mapRow, splitDrawer } from './mapping';
import { sniffFile, type SniffedFile } from './preview';

const PROGRESS_MS = 250;

export interface PreparedImport extends Omit<SniffedFile, 'head' | 'encoding'> {
  request: ImportRequest;
  dataset: DatasetDto;
}

export async function prepareImport(db: Queryable, request: ImportRequest): Promise<PreparedImport> {
  const { head, encoding, ...sniffed } = await sniffFile(request.path, request.format, request.delimiter);
  if (isRefused(encoding)) throw new ImportError(encoding.message);
  const dataset = await findDataset(db, request.dataset);
  checkMapping(request.mapping, dataset.task, sniffed.format === 'csv' ? csvHeader(head, sniffed.delimiter!) : null);
  return { ...sniffed, request, dataset };
}

async function importRows(tx: Queryable, p: PreparedImport, job: JobContext): Promise<ImportReport> {
  const started = performance.now();
  const { request, file } = p;
  const dataset = await findDataset(tx, p.dataset.id);
  const importId = await createImport(tx, dataset.id, file.path, p.format);
  const report = new ReportBuilder();
  const writer = new RecordWriter(tx, { datasetId: dataset.id, importId, fileBytes: file.size }, report.addInserted);
  const check = new Utf8Check();
  const random = request.randomSplit && (request.randomSplit.seed === undefined ? cryptoRandom : seededRandom(request.randomSplit.seed));
  const rules = { mapping: request.mapping, split: request.split, labels: dataset.labels, drawSplit: request.randomSplit && random ? splitDrawer(request.randomSplit, random) : undefined };
  let bytes = 0;
  let reported = 0;
  const tap = (chunk: Buffer) => {
    job.throwIfCancelled();
    check.push(chunk);
    bytes += chunk.length;
    if (performance.now() - reported > PROGRESS_MS) {
      reported = performance.now();
      job.progress('reading', bytes, file.size, `${report.rowsRead.toLocaleString('en')} rows read`);
    }
  };
  try {
    for await (const item of formatReader(p.format, p.delimiter)(readChunks(file.path, tap))) {
      report.rowsRead++;
      const row = 'bad' in item ? item.bad : mapRow(item.values, rules);
      if (!isProblem(row)) {
        if (dataset.privacyUnit === 'subject' && row.subject === undefined) report.withoutSubject++;
        await writer.add(item.line, row);
      }
      // The reader cannot go on (an unclosed quote, an unterminated array): importing the rows
      // before it would silently drop the rest of the file, so the whole import fails.
      else if (request.onBadRow === 'abort' || ('fatal' in item && item.fatal)) throw new ImportError(`line ${item.line}: ${row.reason}; the import was aborted and nothing was imported`);
      else report.addBad({ line: item.line, code: row.code, reason: row.reason });
    }
    await writer.finish();
  } catch (error) {
    await writer.stop();
    throw error;
  }
  check.end();
  job.throwIfCancelled();
  job.progress('committing', file.size, file.size, `${report.accepted.toLocaleString('en')} records`);
  const result = report.build({
    importId, datasetId: dataset.id, format: p.format, delimiter: p.delimiter, bytes,
    randomSplit: request.randomSplit ? (request.randomSplit.seed === undefined ? 'csprng' : 'seed') : null,
    encoding: streamVerdict(check, p.bom), seconds: +((performance.now() - started) / 1000).toFixed(3),
    alsoIn: await alsoIn(tx, dataset.id, importId, writer.insertedIds),
  });
  await finishImport(tx, result);
  await touchDataset(tx, dataset.id);
  return result;
}

/**
 * The job body: the whole import in one transaction; the report is the job's result. Foreign
 * keys are not checked: the import writes the imports row under the dataset it found in the
 * transaction, and records under both; checking them made SQLite journal every batch
 * (importWriter.ts).
 */
export async function runImport(prepared: PreparedImport, job: JobContext, vault: VaultService): Promise<ImportReport> {
  const report = await exclusiveWrite(vault.db.file, (tx) => importRows(tx, prepared, job), { foreignKeys: false });
  vault.changed(prepared.dataset.id, 'imported');
  return report;
}
