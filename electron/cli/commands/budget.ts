/**
 * `veil budget …`: set (or change) a dataset's privacy budget — itself a ledger entry —
 * and show the budget in force. δ defaults to min(1/(10·N), 1e-5) for N privacy units (core/accounting/defaultDelta.ts).
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
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

  budget
    .command('show')
    .description('the budget in force and what is spent')
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action((opts: Pick<BudgetOptions, 'dataset' | 'dataDir' | 'json'>) =>
      withServices(opts.dataDir, async (ctx) => {
        const summary = await callMethod(ctx, 'ledger.summary', { dataset: opts.dataset });
        printResult(opts.json, summary, () => summaryText(summary));
      }),
    );
}
