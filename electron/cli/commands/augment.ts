/**
 * `veil augment DATASET [--epsilon E] [--examples M] [--delta D] [--depth L] [--plan] [--json]`:
 * augments a thin public split (docs/sga.md) through the same service and job as the API —
 * DPM centres of the private split (charged once), the nearest public examples as seeds, M new
 * public examples tagged 'generated'. Prints what was charged and what was added; Ctrl+C
 * cancels the job (exit 130; the reservation stays charged). `veil augment list` and
 * `veil augment show ID` read stored runs and their certificates; `show ID --out FILE` writes
 * the veil.augmentation/v1 document (certificate and generated examples) that
 * `veil certificate verify FILE` checks.
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import type { AugmentationRunDto, AugmentPlan } from '../../shared/api/augmentation';
import type { MethodInput } from '../../shared/contract';
import { followJob } from '../jobControl';
import { outputFile, writeOutput } from '../files';
import { numberOption, printResult } from '../output';
import { withServices } from '../withServices';

interface AugmentOptions {
  epsilon?: string;
  examples?: string;
  delta?: string;
  depth?: string;
  plan?: boolean;
  dataDir: string;
  json?: boolean;
}

const charge = (p: Pick<AugmentPlan, 'epsilon' | 'delta' | 'rho' | 'depth' | 'accountant'>) =>
  `ε ≤ ${p.epsilon.upper.toFixed(4)} at δ = ${p.delta.toExponential()} (${p.accountant}; DPM ρ = ${p.rho.toPrecision(4)}, depth ${p.depth}, whole private split)`;

function summary(run: AugmentationRunDto): string {
  const c = run.certificate;
  if (!c) return `augmentation ${run.id} of ${run.dataset}: ${run.status}${run.error ? ` (${run.error})` : ''}`;
  return [
    `augmentation ${run.id} of ${run.dataset}: charged ${charge(c)}, ledger entry ${c.ledger.entryId}`,
    `seeds: ${c.seeds.count} public examples${c.seeds.fallback ? ' (no cluster survived the noise: a public sample)' : ` nearest ${c.seeds.noisyCounts.length} noisy centres`}`,
    `added ${c.generated.added} of ${c.generated.requested} requested examples to the public split (${c.generated.duplicates} duplicates skipped), tagged ${c.generated.tags.join(', ')}`,
  ].join('\n');
}

async function runAugment(dataset: string, opts: AugmentOptions): Promise<void> {
  const request: MethodInput<'augment.start'> = {
    dataset,
    epsilon: numberOption('--epsilon', opts.epsilon),
    examples: numberOption('--examples', opts.examples),
    delta: numberOption('--delta', opts.delta),
    depth: numberOption('--depth', opts.depth),
  };
  await withServices(opts.dataDir, async (ctx) => {
    if (opts.plan) {
      const plan = await callMethod(ctx, 'augment.plan', request);
      const budget = plan.budget ? `; budget ${plan.budget.spent.toFixed(4)} of ${plan.budget.cap} spent, ${plan.budget.afterJob.toFixed(4)} after` : '';
      printResult(opts.json, plan, () => [`would charge ${charge(plan)}${budget}; ${plan.examples} examples seeded from ${plan.publicExamples} public examples`, ...plan.warnings.map((w) => `warning: ${w}`)].join('\n'));
      return;
    }
    const { jobId, runId } = await callMethod(ctx, 'augment.start', request);
    await followJob(ctx, jobId, `augmentation ${runId}`, opts.json);
    const run = await callMethod(ctx, 'augment.get', { id: runId });
    printResult(opts.json, run, () => summary(run));
  });
}

export function registerAugment(program: Command): void {
  const augment = program.command('augment').description('augment a thin public split from privately estimated centres (charged)');
  augment
    .command('run', { isDefault: true })
    .description('write new public examples like those nearest DPM centres of the private split (the default subcommand)')
    .argument('<dataset>', 'dataset name')
    .option('--epsilon <e>', 'ε of the one DPM release (default 0.5)')
    .option('--examples <m>', 'new public examples to write (default 10)')
    .option('--delta <d>', 'δ (default: the budget δ)')
    .option('--depth <l>', 'DPM tree depth: up to 2^depth centres (default 2)')
    .option('--plan', 'only price it: print the calibrated charge, reserve nothing')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(runAugment);
  augment
    .command('list')
    .description('augmentation runs, newest first')
    .option('--dataset <name>', 'only this dataset')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: { dataset?: string; dataDir: string; json?: boolean }) => {
      const runs = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'augment.list', { dataset: opts.dataset }));
      printResult(opts.json, runs, () => runs.map((r) => `${r.id}\t${r.dataset}\t${r.status}\tε ${r.request.epsilon}\tadded ${r.added}`).join('\n') || 'no augmentation runs');
    });
  augment
    .command('show')
    .description('one run with its veil.augmentation/v1 certificate (JSON)')
    .argument('<id>', 'run id')
    .option('--out <file>', 'write the verifiable document (certificate and generated examples) to this file')
    .option('--overwrite', 'with --out: replace an existing file')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .action(async (id: string, opts: { out?: string; overwrite?: boolean; dataDir: string }) => {
      const runId = numberOption('id', id)!;
      const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
      if (out) {
        writeOutput(out, (await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'augment.export', { id: runId }))).content);
        return;
      }
      const run = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'augment.get', { id: runId }));
      process.stdout.write(`${JSON.stringify(run.certificate ?? run, null, 2)}\n`);
    });
}
