/**
 * `veil synth …`: price, run, list and export DP synthetic prompts, through the same
 * services, ledger and jobs as the app; `veil certificate verify FILE` checks an export
 * against this data directory's ledger (exit 1 when it does not verify).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import type { MethodInput } from '../../shared/contract';
import { withServices } from '../withServices';
import { CliError, numberOption, printResult } from '../output';

interface JobOptions {
  dataset: string;
  epsilon: string;
  delta?: string;
  method: string;
  shots?: string;
  teachers?: string;
  perTeacher?: string;
  topK?: string;
  maxTokens?: string;
  rounds?: string;
  instruction?: string;
  dataDir: string;
  json?: boolean;
}

function request(opts: JobOptions): MethodInput<'synth.plan'> {
  return {
    dataset: opts.dataset,
    method: opts.method as MethodInput<'synth.plan'>['method'],
    epsilon: numberOption('--epsilon', opts.epsilon)!,
    delta: numberOption('--delta', opts.delta),
    shots: numberOption('--shots', opts.shots),
    teachers: numberOption('--teachers', opts.teachers),
    perTeacher: numberOption('--per-teacher', opts.perTeacher),
    topK: numberOption('--top-k', opts.topK),
    maxTokens: numberOption('--max-tokens', opts.maxTokens),
    rounds: numberOption('--rounds', opts.rounds),
    instruction: opts.instruction,
  };
}


function jobOptions(command: Command): Command {
  return command
    .requiredOption('--dataset <name>', 'dataset whose private split is used')
    .requiredOption('--epsilon <e>', 'total ε of the job')
    .option('--delta <d>', 'δ (default: the dataset budget δ)')
    .option('--method <m>', 'dp-few-shot-gaussian | dp-few-shot-exponential | adadpsyn', 'dp-few-shot-gaussian')
    .option('--shots <n>', 'demonstrations (default 4)')
    .option('--teachers <m>', 'teachers M per token (default 10)')
    .option('--per-teacher <n>', 'expected examples per teacher N (default 2)')
    .option('--top-k <k>', 'candidate tokens K (default 100)')
    .option('--max-tokens <t>', 'T_max per demonstration (default 64)')
    .option('--rounds <r>', 'AdaDPSyn rounds T̂ (default 2)')
    .option('--instruction <text>', 'instruction of the prompt')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON');
}

export function registerSynth(program: Command): void {
  const synth = program.command('synth').description('DP synthetic few-shot prompts (price, run, list, export)');

  jobOptions(synth.command('plan').description('calibrate the noise and price a job against the budget (spends nothing)')).action(async (opts: JobOptions) => {
    const plan = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'synth.plan', request(opts)));
    printResult(opts.json, plan, () => {
      const noise = plan.noise.kind === 'gaussian' ? `σ = ${plan.noise.sigma.toPrecision(5)}` : `ε/token = ${plan.noise.epsilonPerToken.toPrecision(5)}`;
      const budget = plan.budget ? `budget: ${plan.budget.spent.toPrecision(4)} spent of ${plan.budget.cap}; after: ${plan.budget.afterJob.toPrecision(4)}` : 'no budget set';
      return [`${noise}; ε ≤ ${plan.epsilon.upper.toPrecision(5)} at δ = ${plan.delta} (${plan.accountant})`, budget, ...plan.warnings.map((w) => `warning: ${w}`)].join('\n');
    });
  });

  jobOptions(synth.command('run').description('reserve the budget and generate; prints the released prompt'))
    .option('--out <file>', 'write the export to this file')
    .option('--format <f>', 'json | markdown | chat', 'json')
    .action(async (opts: JobOptions & { out?: string; format: string }) => {
      const result = await withServices(opts.dataDir, async (ctx) => {
        const off = ctx.subscribe((event, payload) => {
          if (event !== 'synth.progress' || opts.json) return;
          const p = payload as { stepsDone: number; stepsMax: number; demonstrationsDone: number; demonstrationsTotal: number };
          process.stderr.write(`\r${p.demonstrationsDone}/${p.demonstrationsTotal} demonstrations, ${p.stepsDone}/${p.stepsMax} token steps`);
        });
        const { jobId, runId } = await callMethod(ctx, 'synth.start', request(opts));
        const job = await ctx.jobs.wait(jobId);
        off();
        if (!opts.json) process.stderr.write('\n');
        if (job.status !== 'succeeded') throw new CliError(`run ${runId} ${job.status}: ${job.error ?? ''} (the reserved budget stays spent)`);
        return callMethod(ctx, 'synth.export', { id: runId, format: opts.format as 'json' });
      });
      if (opts.out) writeFileSync(resolve(opts.out), result.content);
      printResult(opts.json, result, () => (opts.out ? `wrote ${opts.out}` : result.content));
    });

  synth
    .command('list')
    .description('synthesis runs, newest first')
    .option('--dataset <name>', 'only this dataset')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: { dataset?: string; dataDir: string; json?: boolean }) => {
      const runs = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'synth.list', { dataset: opts.dataset }));
      printResult(opts.json, runs, () => runs.map((r) => `${r.id}\t${r.dataset}\t${r.method}\t${r.shots} shots\tε=${r.epsilon}\t${r.status}`).join('\n') || 'no runs');
    });

  synth
    .command('export')
    .description('export a run as veil.dp-prompt/v1 JSON, Markdown or chat messages')
    .argument('<run>', 'run id')
    .option('--format <f>', 'json | markdown | chat', 'json')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .action(async (run: string, opts: { format: string; out?: string; dataDir: string }) => {
      const id = numberOption('run', run)!;
      const file = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'synth.export', { id, format: opts.format as 'json' }));
      if (opts.out) writeFileSync(resolve(opts.out), file.content);
      else process.stdout.write(file.content);
    });

  program
    .command('certificate')
    .description('privacy certificates of exported DP prompts')
    .command('verify')
    .description('check an exported DP prompt against its certificate and this ledger (exit 1 if invalid)')
    .argument('<file>', 'a veil.dp-prompt/v1 JSON file')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { dataDir: string; json?: boolean }) => {
      const text = readFileSync(resolve(file), 'utf8');
      const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'certificate.verify', { document: text }));
      printResult(opts.json, result, () => result.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n'));
      if (!result.valid) throw new CliError(`${file}: the certificate does not verify`);
    });
}
