/**
 * `veil sizes …`: a dataset's setting "size is public". Off (the default), pool sizes and the
 * N of the default δ are released only as charged DP counts; on, the analyst declares the
 * dataset's size public and the exact sizes are used (stated in each charge and certificate).
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import { CliError, printResult } from '../output';
import { withServices } from '../withServices';

interface SizesOptions {
  dataset: string;
  public?: boolean;
  private?: boolean;
  dataDir: string;
  json?: boolean;
}

const describe = (r: { dataset: string; sizePublic: boolean }) =>
  r.sizePublic
    ? `the size of "${r.dataset}" is declared public: pool sizes are used exactly, outside the (ε, δ) guarantee`
    : `the size of "${r.dataset}" is private: pool sizes are released as noisy counts, charged with each job`;

export function registerSizes(program: Command): void {
  const sizes = program.command('sizes').description("whether a dataset's size is public (default: private, released as charged noisy counts)");

  sizes
    .command('show')
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action((opts: SizesOptions) =>
      withServices(opts.dataDir, async (ctx) => {
        const result = await callMethod(ctx, 'sizes.get', { dataset: opts.dataset });
        printResult(opts.json, result, () => describe(result));
      }),
    );

  sizes
    .command('set')
    .description('declare the size public (--public) or private again (--private)')
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--public', 'the size is public: use exact pool sizes')
    .option('--private', 'the size is private: release noisy, charged counts (the default)')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action((opts: SizesOptions) =>
      withServices(opts.dataDir, async (ctx) => {
        if (Boolean(opts.public) === Boolean(opts.private)) throw new CliError('pass exactly one of --public or --private', 2);
        const result = await callMethod(ctx, 'sizes.set', { dataset: opts.dataset, sizePublic: Boolean(opts.public) });
        printResult(opts.json, result, () => describe(result));
      }),
    );
}
