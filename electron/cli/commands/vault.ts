/**
 * `veil vault …`: datasets and records from the command line, through the same services
 * as the app — list, create, stats, records, import (a file, as one atomic job), export,
 * scan-pii, sample-data, delete, delete-records, compact. Record text is never printed
 * (`records` lists ids, splits, labels, subjects and tags; `export` writes text to a file
 * only): import reports give line numbers and reasons.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import type { ServiceContext } from '../../services/context';
import { defaultDataDir } from '../../services/dataDir';
import type { MethodInput } from '../../shared/contract';
import type { DatasetDto, PiiRescanReport, RecordFilter } from '../../shared/api/vault';
import type { ImportReport } from '../../shared/api/vaultFiles';
import { outputFile } from '../files';
import { withServices } from '../withServices';
import { CliError, numberOption, printResult } from '../output';

interface Common {
  dataDir: string;
  json?: boolean;
}

interface ImportOptions extends Common {
  dataset: string;
  format?: string;
  delimiter?: string;
  text: string;
  label?: string;
  subject?: string;
  output?: string;
  split: string;
  splitColumn?: string;
  onBadRow: string;
  create?: boolean;
  labels?: string;
  task: string;
  privacyUnit: string;
  subjectCap?: string;
  randomSplit?: string;
  splitSeed?: string;
}

/** --random-split P,PUB,HELD (proportions adding up to 1) and --split-seed; refused with the flag named. */
function randomSplitOption(opts: ImportOptions): MethodInput<'vault.import'>['randomSplit'] {
  if (opts.randomSplit === undefined) {
    if (opts.splitSeed !== undefined) throw new CliError('--split-seed needs --random-split', 2);
    return undefined;
  }
  const parts = opts.randomSplit.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 3 || parts.some((p) => !Number.isFinite(p) || p < 0 || p > 1) || Math.abs(parts[0] + parts[1] + parts[2] - 1) > 1e-9) {
    throw new CliError(`--random-split must be three proportions private,public,held-out adding up to 1 (e.g. 0.8,0.1,0.1), got "${opts.randomSplit}"`, 2);
  }
  return { private: parts[0], public: parts[1], heldOut: parts[2], ...(opts.splitSeed === undefined ? {} : { seed: opts.splitSeed }) };
}

const common = (command: Command) => command.option('--data-dir <dir>', 'data directory', defaultDataDir()).option('--json', 'print JSON');

const splitCounts = (c: { private: number; public: number; heldOut: number }) => `${c.private} private, ${c.public} public, ${c.heldOut} held-out`;

/** A CLI value that must be one of `allowed` (checked here so the error is one line naming the flag). */
function choice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new CliError(`${flag} must be one of ${allowed.join(', ')}; got "${value}"`, 2);
}

const labelList = (labels: string | undefined) => (labels ? labels.split(',').map((l) => l.trim()).filter(Boolean) : []);

const UNITS = ['record', 'subject'] as const;
const TASKS = ['classification', 'generation'] as const;
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * The dataset to import into, created with --create from --task, --labels, --privacy-unit
 * and --subject-cap. Those flags set up a new dataset only: given for one that exists, they
 * must match it (a silently ignored --labels would turn every labelled row into a bad row).
 */
async function ensureDataset(ctx: ServiceContext, opts: ImportOptions, given: (option: string) => boolean): Promise<DatasetDto> {
  const existing = (await callMethod(ctx, 'vault.listDatasets', {})).find((d) => d.name === opts.dataset);
  const task = choice('--task', opts.task, TASKS)!;
  const privacyUnit = choice('--privacy-unit', opts.privacyUnit, UNITS)!;
  const subjectCap = numberOption('--subject-cap', opts.subjectCap);
  if (existing) {
    const differs = [
      given('labels') && !sameSet(labelList(opts.labels), existing.labels) && `--labels ${labelList(opts.labels).join(',') || '(none)'} (it has ${existing.labels.join(',') || 'none'})`,
      given('task') && task !== existing.task && `--task ${task} (it is ${existing.task})`,
      given('privacyUnit') && privacyUnit !== existing.privacyUnit && `--privacy-unit ${privacyUnit} (it is ${existing.privacyUnit})`,
      given('subjectCap') && subjectCap !== existing.subjectCap && `--subject-cap ${opts.subjectCap} (it is ${existing.subjectCap})`,
    ].filter(Boolean);
    if (differs.length) throw new CliError(`dataset "${opts.dataset}" exists already and does not match ${differs.join(', ')}: these flags only set up a dataset --create creates; drop them or import into another dataset`, 2);
    return existing;
  }
  if (!opts.create) throw new CliError(`no dataset named "${opts.dataset}" (add --create, with --labels for a classification dataset)`, 2);
  return callMethod(ctx, 'vault.createDataset', { name: opts.dataset, task, labels: labelList(opts.labels), privacyUnit, subjectCap });
}

function importInput(file: string, opts: ImportOptions): MethodInput<'vault.import'> {
  const delimiter = opts.delimiter === 'tab' ? '\t' : opts.delimiter;
  return {
    dataset: opts.dataset,
    path: resolve(file),
    format: choice('--format', opts.format, ['csv', 'jsonl', 'json', 'txt'] as const),
    delimiter: choice('--delimiter', delimiter, [',', ';', '\t', '|'] as const),
    mapping: { text: opts.text, label: opts.label, subject: opts.subject, output: opts.output, split: opts.splitColumn },
    split: choice('--split', opts.split, ['private', 'public', 'held-out'] as const),
    onBadRow: choice('--on-bad-row', opts.onBadRow, ['skip', 'abort'] as const),
    randomSplit: randomSplitOption(opts),
  };
}

function describeReport(report: ImportReport, dataset: string): string {
  const shown = 20;
  const { duplicates, badRows } = report;
  const lines = [`imported ${report.accepted} of ${report.rowsRead} rows into "${dataset}" (${report.format}${report.delimiter ? `, delimiter ${JSON.stringify(report.delimiter)}` : ''}, ${report.seconds} s)`];
  if (duplicates.count > 0) lines.push(`duplicates skipped: ${duplicates.count} (lines ${duplicates.lines.slice(0, shown).join(', ')}${duplicates.count > shown ? ', …' : ''})`);
  if (badRows.count > 0) lines.push(`bad rows skipped: ${badRows.count}`, ...badRows.rows.slice(0, shown).map((b) => `  line ${b.line}: ${b.reason}`));
  if (badRows.count > shown) lines.push(`  … (--json lists the first ${badRows.rows.length})`);
  if (!report.encoding.ok) lines.push(`encoding: ${report.encoding.message}`);
  if (report.randomSplit) lines.push(`rows without a split value were split at random (${report.randomSplit === 'seed' ? 'from --split-seed: repeatable' : 'from the CSPRNG'}; not a privacy mechanism)`);
  if (report.withoutSubject > 0) lines.push(`warning: ${report.withoutSubject} row(s) have no subject id: in this subject-level dataset each counts as its own data subject (map --subject, or fill the column)`);
  for (const other of report.alsoIn) lines.push(`warning: ${other.records} imported texts are also in dataset "${other.dataset}", which has its own budget: a release from either spends against the same people`);
  return lines.join('\n');
}

function registerImport(vault: Command): void {
  common(
    vault
      .command('import')
      .description('import a CSV, JSONL, JSON-array or text file into a dataset, all rows or none')
      .argument('<file>')
      .requiredOption('--dataset <name>', 'dataset to import into')
      .option('--format <format>', 'csv | jsonl | json | txt (default: from the extension and content)')
      .option('--delimiter <char>', 'CSV delimiter: , ; tab | (default: detected)')
      .option('--text <column>', 'column (CSV) or field (JSON) holding the text', 'text')
      .option('--label <column>', 'column holding the label (must be in the label set)')
      .option('--subject <column>', 'column holding the subject id')
      .option('--output <column>', 'column holding the reference output (generation)')
      .option('--split <split>', 'private | public | held-out: split of rows without a split column value', 'private')
      .option('--split-column <column>', 'column holding each row\'s split')
      .option('--random-split <p,pub,held>', 'split rows without a split value at random in these proportions, e.g. 0.8,0.1,0.1 (CSPRNG; not a privacy mechanism)')
      .option('--split-seed <text>', 'with --random-split: a seed for a repeatable split instead of the CSPRNG')
      .option('--on-bad-row <action>', 'skip | abort', 'skip')
      .option('--create', 'create the dataset if it does not exist')
      .option('--labels <list>', 'with --create: the public label set, comma-separated')
      .option('--task <task>', 'with --create: classification | generation', 'classification')
      .option('--privacy-unit <unit>', 'with --create: record | subject (one person\'s records together; map --subject)', 'record')
      .option('--subject-cap <n>', 'with --create, subject level: most records per subject in a sample'),
  ).action(async (file: string, opts: ImportOptions, command: Command) => {
    const input = importInput(file, opts);
    const given = (option: string) => command.getOptionValueSource(option) === 'cli';
    const report = await withServices(opts.dataDir, async (ctx) => {
      const dataset = await ensureDataset(ctx, opts, given);
      if (opts.subject !== undefined && dataset.privacyUnit === 'record') {
        process.stderr.write(
          `veil: warning: --subject maps a subject column, but dataset "${dataset.name}" has privacy unit "record": ε protects single records, not a person with several (create it with --privacy-unit subject)\n`,
        );
      }
      const { jobId } = await callMethod(ctx, 'vault.import', input);
      const job = await ctx.jobs.wait(jobId);
      if (job.status !== 'succeeded') throw new CliError(job.error ?? `the import was ${job.status}`);
      return job.result as ImportReport;
    });
    printResult(opts.json, report, () => describeReport(report, opts.dataset));
  });
}

function registerFiles(vault: Command): void {
  registerImport(vault);
  common(
    vault
      .command('export')
      .description('write a dataset to a CSV or JSONL file (owner-only)')
      .argument('<dataset>')
      .requiredOption('--out <file>', 'file to write')
      .option('--format <format>', 'csv | jsonl (default: from the extension, which must match it)')
      .option('--overwrite', 'replace an existing file'),
  ).action(async (dataset: string, opts: Common & { out: string; format?: string; overwrite?: boolean }) => {
    const extension = /\.(csv|jsonl)$/i.exec(opts.out)?.[1].toLowerCase();
    const format = choice('--format', opts.format ?? extension, ['csv', 'jsonl'] as const);
    if (!format) throw new CliError('the file name must end in .csv or .jsonl', 2);
    const out = outputFile(opts.out, { overwrite: opts.overwrite }); // the CLI's --out rules; the service writes it (atomically, owner-only)
    const input = { dataset, path: out.path, format, overwrite: out.overwrite };
    const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.export', input));
    printResult(opts.json, result, () => `wrote ${result.records} records to ${result.path} (${result.bytes} bytes)`);
  });
}

function registerScanPii(vault: Command): void {
  common(vault.command('scan-pii').description('rescan every record of a dataset for PII (all records or none updated)').argument('<dataset>')).action(
    async (dataset: string, opts: Common) => {
      const report = await withServices(opts.dataDir, async (ctx) => {
        const { jobId } = await callMethod(ctx, 'vault.scanPii', { dataset });
        const job = await ctx.jobs.wait(jobId);
        if (job.status !== 'succeeded') throw new CliError(job.error ?? `the PII rescan was ${job.status}`);
        return job.result as PiiRescanReport;
      });
      const kinds = report.pii.map((p) => `  ${p.kind}: ${p.records} records`);
      printResult(opts.json, report, () => [`scanned ${report.records} records in ${report.seconds} s; ${report.changed} changed`, ...kinds].join('\n'));
    },
  );
}

async function statsOf(ctx: ServiceContext, name?: string) {
  const datasets = (await callMethod(ctx, 'vault.listDatasets', {})).filter((d) => name === undefined || d.name === name);
  if (name !== undefined && datasets.length === 0) throw new CliError(`no dataset named "${name}"`);
  return Promise.all(datasets.map(async (dataset) => ({ dataset, stats: await callMethod(ctx, 'vault.stats', { dataset: dataset.id }) })));
}

function describeStats({ dataset, stats }: Awaited<ReturnType<typeof statsOf>>[number]): string {
  const labels = stats.labels.map((l) => `  ${l.label ?? '(none)'}: ${l.private} private, ${l.public} public, ${l.heldOut} held-out`);
  const pii = stats.pii.map((p) => `  ${p.kind}: ${p.records} records`);
  return [`${dataset.name} (${dataset.task}, privacy unit: ${dataset.privacyUnit})`, `splits: ${splitCounts(stats.splits)}`, 'labels:', ...labels, 'PII:', ...(pii.length ? pii : ['  none found'])].join('\n');
}

/** Every record of a dataset matching a filter, page by page in id order, without its text (dropped page by page). */
async function recordList(ctx: ServiceContext, dataset: string, filter: RecordFilter) {
  const listed = [];
  for (let offset = 0; ; ) {
    const page = await callMethod(ctx, 'vault.records', { dataset, filter, offset, limit: 1000, order: 'id' });
    listed.push(...page.rows.map((r) => ({ id: r.id, split: r.split, label: r.label, subject: r.subject, tags: r.tags, pii: [...new Set(r.pii.map((p) => p.kind))] })));
    offset += page.rows.length;
    if (page.rows.length === 0 || offset >= page.total) return listed;
  }
}

/** `veil vault records DATASET`: ids and metadata, never the text (the id is what delete-records takes). */
function registerRecords(vault: Command): void {
  common(
    vault
      .command('records')
      .description('list record ids with split, label, subject, tags and PII kinds (never the text)')
      .argument('<dataset>')
      .option('--subject <id...>', 'only the records of these subject ids')
      .option('--split <split>', 'only this split: private | public | held-out')
      .option('--label <label>', 'only this label'),
  ).action(async (dataset: string, opts: Common & { subject?: string[]; split?: string; label?: string }) => {
    const split = choice('--split', opts.split, ['private', 'public', 'held-out'] as const);
    const filter: RecordFilter = { ...(opts.subject && { subjects: opts.subject }), ...(split && { splits: [split] }), ...(opts.label !== undefined && { labels: [opts.label] }) };
    const listed = await withServices(opts.dataDir, (ctx) => recordList(ctx, dataset, filter));
    printResult(opts.json, listed, () =>
      listed.length === 0
        ? 'no records'
        : ['id\tsplit\tlabel\tsubject\ttags\tpii', ...listed.map((r) => [r.id, r.split, r.label ?? '-', r.subject ?? '-', r.tags.join(',') || '-', r.pii.join(',') || '-'].join('\t'))].join('\n'),
    );
  });
}

export function registerVault(program: Command): void {
  const vault = program.command('vault').description('the exemplar vault: datasets and records');

  common(vault.command('list').description('datasets and their split sizes')).action(async (opts: Common) => {
    const datasets = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.listDatasets', {}));
    printResult(opts.json, datasets, () => datasets.map((d) => `${d.name}\t${d.task}\t${d.labels.join('/') || '-'}\t${splitCounts(d.counts)}`).join('\n') || 'no datasets');
  });

  common(
    vault
      .command('create')
      .description('create an empty dataset')
      .argument('<name>')
      .option('--task <task>', 'classification | generation', 'classification')
      .option('--labels <list>', 'public label set, comma-separated')
      .option('--privacy-unit <unit>', 'record | subject', 'record')
      .option('--subject-cap <n>', 'subject level: most records per subject in a sample')
      .option('--description <text>', 'description', ''),
  ).action(async (name: string, opts: Common & { task: string; labels?: string; privacyUnit: string; subjectCap?: string; description: string }) => {
    const input: MethodInput<'vault.createDataset'> = {
      name,
      task: choice('--task', opts.task, ['classification', 'generation'] as const)!,
      labels: labelList(opts.labels),
      privacyUnit: choice('--privacy-unit', opts.privacyUnit, ['record', 'subject'] as const)!,
      subjectCap: numberOption('--subject-cap', opts.subjectCap),
      description: opts.description,
    };
    const dataset = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.createDataset', input));
    printResult(opts.json, dataset, () => `created dataset ${dataset.name} (id ${dataset.id})`);
  });

  common(
    vault
      .command('stats')
      .alias('show')
      .description('splits, labels, PII findings of one dataset or of all')
      .argument('[dataset]')
      .option('--dataset <name>', 'the dataset (default: all)'),
  ).action(async (positional: string | undefined, opts: Common & { dataset?: string }) => {
    const result = await withServices(opts.dataDir, (ctx) => statsOf(ctx, opts.dataset ?? positional));
    printResult(opts.json, opts.dataset ?? positional ? result[0] : result, () => result.map(describeStats).join('\n\n') || 'no datasets');
  });

  registerRecords(vault);
  registerFiles(vault);
  registerScanPii(vault);

  common(
    vault
      .command('sample-data')
      .description('create a sample dataset: spam (SpamAssassin e-mails), clinic (synthetic clinic notes) or clinic-summaries (synthetic notes → summaries, a generation task)')
      .argument('<kind>', 'spam | clinic | clinic-summaries')
      .option('--name <name>', 'dataset name (default: the sample\'s own)'),
  ).action(async (kind: string, opts: Common & { name?: string }) => {
    const input = { kind: choice('kind', kind, ['spam', 'clinic', 'clinic-summaries'] as const), name: opts.name };
    const dataset = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.createSample', input));
    printResult(opts.json, dataset, () => `created ${dataset.name}: ${splitCounts(dataset.counts)}`);
  });

  common(vault.command('delete').description('hard-delete a dataset and its records, then compact the file').argument('<dataset>').option('--yes', 'confirm')).action(
    async (name: string, opts: Common & { yes?: boolean }) => {
      if (!opts.yes) throw new CliError(`deleting "${name}" cannot be undone: add --yes`, 2);
      const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.deleteDataset', { dataset: name, compact: true }));
      printResult(opts.json, result, () => `deleted ${result.deletedRecords} records${result.datasetRemoved ? ' and the dataset' : '; the dataset row stays because its ledger has entries'}`);
    },
  );

  common(
    vault
      .command('delete-records')
      .description('hard-delete records of a dataset (by id, or every record of a data subject: the right to be forgotten), then compact the file')
      .argument('<dataset>')
      .option('--ids <ids>', 'comma-separated record ids (veil vault records DATASET lists them)')
      .option('--subject <id...>', 'subject ids: every record of each')
      .option('--yes', 'confirm'),
  ).action(async (name: string, opts: Common & { ids?: string; subject?: string[]; yes?: boolean }) => {
    if ((opts.ids === undefined) === (opts.subject === undefined)) throw new CliError('name the records: --ids 1,2,3 or --subject ID (one of them)', 2);
    const ids = opts.ids === undefined ? undefined : [...new Set(opts.ids.split(',').map((id) => Number(id.trim())))];
    if (ids && !ids.every((id) => Number.isInteger(id) && id > 0)) throw new CliError(`--ids must be positive whole numbers separated by commas, got "${opts.ids}"`, 2);
    if (!opts.yes) throw new CliError('deleting records cannot be undone: add --yes', 2);
    const target = ids ? { ids } : { filter: { subjects: opts.subject! } };
    const result = await withServices(opts.dataDir, async (ctx) => {
      // All named records or none: an id of another dataset or a subject without records is a mistake to report, not a success.
      if (ids) {
        const present = new Set((await recordList(ctx, name, {})).map((r) => r.id));
        const missing = ids.filter((id) => !present.has(id));
        if (missing.length > 0) {
          throw new CliError(`${missing.length === ids.length ? 'none of --ids are' : `record ${missing.length === 1 ? 'id' : 'ids'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not`} records of dataset "${name}": nothing deleted (veil vault records "${name}" lists its ids)`);
        }
      } else {
        const counts = await Promise.all(opts.subject!.map(async (subject) => (await callMethod(ctx, 'vault.records', { dataset: name, filter: { subjects: [subject] }, limit: 1 })).total));
        const missing = opts.subject!.filter((_, i) => counts[i] === 0);
        if (missing.length > 0) throw new CliError(`dataset "${name}" has no records of subject ${missing.map((m) => JSON.stringify(m)).join(', ')}: nothing deleted`);
      }
      const { affected } = await callMethod(ctx, 'vault.bulk', { dataset: name, target, action: { kind: 'delete' } });
      if (affected === 0) throw new CliError(`no records of dataset "${name}" matched: nothing deleted`);
      return { deleted: affected, compacted: await callMethod(ctx, 'vault.compact', {}) };
    });
    printResult(opts.json, result, () => `deleted ${result.deleted} records; compacted: ${result.compacted.bytesBefore} → ${result.compacted.bytesAfter} bytes`);
  });

  common(vault.command('compact').description('VACUUM the database so deleted text does not linger on disk')).action(async (opts: Common) => {
    const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.compact', {}));
    printResult(opts.json, result, () => `compacted: ${result.bytesBefore} → ${result.bytesAfter} bytes`);
  });
}
