/**
 * `veil budget …`: set (or change) a dataset's privacy budget — itself a ledger entry —
 * show the budget in force, and count N, the privacy units of the private split.
 * δ defaults to min(1/(10·N), 1e-5) for N privacy units (core/accounting/defaultDelta.ts).
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import type { ServiceContext } from '../../services/context';
import { defaultDataDir } from '../../services/dataDir';
import type { PrivacyUnitsDto } from '../../shared/api/privacyUnits';
import { CliError, numberOption, printResult } from '../output';
import { withServices } from '../withServices';
import { summaryText } from './ledger';

interface BudgetOptions {
  dataset: string;
  epsilon: string;
  delta?: string;
  purpose?: string;
  dataDir: string;
  json?: boolean;
}

/** N in words: what it counts, or that the private split is empty. */
function privacyUnitsText(units: PrivacyUnitsDto): string {
  if (units.n === null) return `"${units.dataset}" has no private records: no privacy units to count`;
  const what = units.unit === 'subject' ? 'subjects of the private split; a record without a subject id is its own subject' : 'records of the private split';
  return `"${units.dataset}": N = ${units.n} privacy units (${what})`;
}

export function registerBudget(program: Command): void {
  const budget = program.command('budget').description("a dataset's privacy budget: ε cap and δ");

  budget
    .command('set')
    .description('set or change the budget (recorded as a ledger entry)')
    .requiredOption('--dataset <name>', 'dataset name')
    .requiredOption('--epsilon <e>', 'ε cap')
    .option('--delta <d>', 'δ (default min(1/(10·N), 1e-5), N = privacy units of the dataset)')
    .option('--purpose <text>', 'why the budget is set or changed')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action((opts: BudgetOptions) =>
      withServices(opts.dataDir, async (ctx) => {
        const epsilon = numberOption('--epsilon', opts.epsilon)!;
        const delta = numberOption('--delta', opts.delta);
        if (!(epsilon > 0)) throw new CliError('--epsilon must be > 0', 2);
        if (delta !== undefined && !(delta > 0 && delta < 1)) throw new CliError('--delta must be in (0, 1)', 2);
        const result = await callMethod(ctx, 'budget.set', { dataset: opts.dataset, epsilon, delta, purpose: opts.purpose });
        for (const warning of result.warnings) process.stderr.write(`veil: warning: ${warning}\n`);
        const b = result.budget;
        printResult(opts.json, result, () => `budget of "${b.dataset}": ε cap ${b.epsilon}, δ=${b.delta.toExponential(2)} (entry ${b.entryId})`);
      }),
    );

  readCommand(budget, 'show', 'the budget in force and what is spent', (ctx, dataset) => callMethod(ctx, 'ledger.summary', { dataset }), summaryText);
  readCommand(
    budget,
    'units',
    'N, the privacy units of the private split (records or subjects), as sampling rates and the default δ count them',
    (ctx, dataset) => callMethod(ctx, 'budget.privacyUnits', { dataset }),
    privacyUnitsText,
  );
}

/** A subcommand that reads one thing of --dataset and prints it as text, or JSON with --json. */
function readCommand<T>(parent: Command, name: string, description: string, read: (ctx: ServiceContext, dataset: string) => Promise<T>, text: (result: T) => string): void {
  parent
    .command(name)
    .description(description)
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action((opts: Pick<BudgetOptions, 'dataset' | 'dataDir' | 'json'>) =>
      withServices(opts.dataDir, async (ctx) => {
        const result = await read(ctx, opts.dataset);
        printResult(opts.json, result, () => text(result));
      }),
    );
}
