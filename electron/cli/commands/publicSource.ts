/**
 * `veil public-source …`: where a dataset's public examples come from — its own public split,
 * or (out-of-distribution public data, for a dataset with none) the public split of another
 * dataset of the vault. `show --dataset A`; `set --dataset A --from X`; `set --dataset A --clear`.
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import type { PublicSourceDto } from '../../shared/api/publicSource';
import { CliError, printResult } from '../output';
import { withServices } from '../withServices';

interface Options {
  dataset: string;
  from?: string;
  clear?: boolean;
  dataDir: string;
  json?: boolean;
}

export function describePublicSource(r: PublicSourceDto): string {
  const from = r.from === null ? 'no other dataset named' : `public source: "${r.from}" (${r.fromRecords} public records)`;
  const uses =
    r.uses === 'in-domain' ? `answering uses its own public split (${r.inDomain} records)` : r.uses === 'other-dataset' ? `answering uses the public split of "${r.from}"` : 'answering has no public examples';
  return `"${r.dataset}": ${from}; ${uses}`;
}

export function registerPublicSource(program: Command): void {
  const group = program.command('public-source').description("where a dataset's public examples come from (its public split, or another dataset's)");
  group
    .command('show')
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action((opts: Options) =>
      withServices(opts.dataDir, async (ctx) => {
        const result = await callMethod(ctx, 'publicSource.get', { dataset: opts.dataset });
        printResult(opts.json, result, () => describePublicSource(result));
      }),
    );
  group
    .command('set')
    .description('use the public split of another dataset (--from X) when this one has no public split, or stop (--clear)')
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--from <name>', 'the dataset whose public split serves (only its public split is read)')
    .option('--clear', 'use in-domain public examples only')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action((opts: Options) =>
      withServices(opts.dataDir, async (ctx) => {
        if ((opts.from === undefined) === !opts.clear) throw new CliError('pass exactly one of --from NAME or --clear', 2);
        const result = await callMethod(ctx, 'publicSource.set', { dataset: opts.dataset, from: opts.clear ? null : opts.from! });
        printResult(opts.json, result, () => describePublicSource(result));
      }),
    );
}
