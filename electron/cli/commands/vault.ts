/**
 * `veil vault …`: datasets and records from the command line, through the same services
 * as the app. Record text is printed only by `show --records`, on request.
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import type { MethodInput } from '../../shared/contract';
import { withServices } from '../withServices';
import { CliError, numberOption, printResult } from '../output';

interface Common {
  dataDir: string;
  json?: boolean;
}


const common = (command: Command) => command.option('--data-dir <dir>', 'data directory', defaultDataDir()).option('--json', 'print JSON');

const splitCounts = (c: { private: number; public: number; heldOut: number }) => `${c.private} private, ${c.public} public, ${c.heldOut} held-out`;

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
      task: opts.task as 'classification',
      labels: opts.labels ? opts.labels.split(',').map((l) => l.trim()).filter(Boolean) : [],
      privacyUnit: opts.privacyUnit as 'record',
      subjectCap: numberOption('--subject-cap', opts.subjectCap),
      description: opts.description,
    };
    const dataset = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.createDataset', input));
    printResult(opts.json, dataset, () => `created dataset ${dataset.name} (id ${dataset.id})`);
  });

  common(vault.command('show').description('a dataset: splits, labels, PII and tags').argument('<dataset>')).action(async (name: string, opts: Common) => {
    const result = await withServices(opts.dataDir, async (ctx) => {
      const stats = await callMethod(ctx, 'vault.stats', { dataset: name });
      const dataset = (await callMethod(ctx, 'vault.listDatasets', {})).find((d) => d.name === name)!;
      return { dataset, stats };
    });
    printResult(opts.json, result, () => {
      const { dataset, stats } = result;
      const labels = stats.labels.map((l) => `  ${l.label ?? '(none)'}: ${l.private} private, ${l.public} public, ${l.heldOut} held-out`);
      const pii = stats.pii.map((p) => `  ${p.kind}: ${p.records} records`);
      return [`${dataset.name} (${dataset.task}, privacy unit: ${dataset.privacyUnit})`, `splits: ${splitCounts(stats.splits)}`, 'labels:', ...labels, 'PII:', ...(pii.length ? pii : ['  none found'])].join('\n');
    });
  });

  common(vault.command('sample').description('create the SpamAssassin sample dataset').option('--name <name>', 'dataset name', 'SpamAssassin sample')).action(async (opts: Common & { name: string }) => {
    const dataset = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.createSample', { name: opts.name }));
    printResult(opts.json, dataset, () => `created ${dataset.name}: ${splitCounts(dataset.counts)}`);
  });

  common(vault.command('delete').description('hard-delete a dataset and its records, then compact the file').argument('<dataset>').option('--yes', 'confirm')).action(
    async (name: string, opts: Common & { yes?: boolean }) => {
      if (!opts.yes) throw new CliError(`deleting "${name}" cannot be undone: add --yes`, 2);
      const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.deleteDataset', { dataset: name, compact: true }));
      printResult(opts.json, result, () => `deleted ${result.deletedRecords} records${result.datasetRemoved ? ' and the dataset' : '; the dataset row stays because its ledger has entries'}`);
    },
  );

  common(vault.command('compact').description('VACUUM the database so deleted text does not linger on disk')).action(async (opts: Common) => {
    const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'vault.compact', {}));
    printResult(opts.json, result, () => `compacted: ${result.bytesBefore} → ${result.bytesAfter} bytes`);
  });
}
