/**
 * `veil synth evaluate RUN [--held-out N] [--json]`: the utility check of a released run on
 * the held-out split (DP prompt, zero-shot, real public demonstrations, the most common
 * label; accuracy and balanced accuracy). `veil synth preview …` takes `synth run`'s options
 * and runs the same job on the dataset's PUBLIC split as if it were private, with its utility
 * check: it charges nothing and reads no private record. Both show progress on stderr;
 * Ctrl+C cancels either (exit 130).
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import type { ServiceContext } from '../../services/context';
import { defaultDataDir } from '../../services/dataDir';
import type { utilitySchema } from '../../shared/api/synthesis';
import { synthesisPreviewSchema, type SynthesisPreview } from '../../shared/api/synthesisPreview';
import type { MethodInput } from '../../shared/contract';
import { modelNotice } from '../../shared/modelNotice';
import { utilityVerdict } from '../../shared/utilityVerdict';
import { outputFile, writeOutput } from '../files';
import { interruptible, useModel, type ModelOptions } from '../jobControl';
import { CliError, numberOption, printResult } from '../output';
import { progressLine } from '../progressLine';
import { withServices } from '../withServices';
import type { z } from 'zod';

type Utility = z.infer<typeof utilitySchema>;

const DEFAULT_HELD_OUT = 200;

/** The utility check as a small table and its one-sentence verdict. */
export function utilityText(u: Utility): string {
  const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(100 * x).toFixed(1)} %`);
  const rows: [string, number | null, number | null | undefined][] = [
    ['DP synthetic prompt', u.synthetic, u.balanced?.synthetic],
    ['zero-shot', u.zeroShot, u.balanced?.zeroShot],
    ['real public demonstrations', u.realPublic, u.balanced?.realPublic],
  ];
  if (u.mostCommon && u.labels) rows.push([`always "${u.mostCommon.label}"`, u.mostCommon.accuracy, 1 / Object.keys(u.labels).length]);
  const metric = u.metric === 'accuracy' ? 'accuracy' : 'ROUGE-L';
  return [
    `${metric}${u.balanced ? ' / balanced accuracy' : ''} on ${u.examples} held-out examples with ${u.model}`,
    ...rows.map(([name, value, balanced]) => `  ${name.padEnd(28)} ${pct(value).padStart(8)}${u.balanced ? `  ${pct(balanced).padStart(8)}` : ''}`),
    utilityVerdict(u),
  ].join('\n');
}

/**
 * Runs a job that reserves nothing, following Ctrl+C, with its progress on stderr (not with
 * --json); returns its result or throws a one-line error.
 */
async function runFree(ctx: ServiceContext, what: string, json: boolean | undefined, start: (interrupt: ReturnType<typeof interruptible>) => Promise<string>): Promise<unknown> {
  const interrupt = interruptible(ctx);
  const progress = progressLine();
  const off = ctx.subscribe((event, payload) => {
    const p = payload as { jobId?: string; stage?: string; done?: number; total?: number };
    if (event === 'job.progress' && p.jobId === interrupt.state.jobId && !json) progress.update(p.stage ?? '', `${p.stage}: ${p.done}/${p.total}`);
  });
  try {
    const jobId = await start(interrupt);
    interrupt.follow(jobId);
    const finished = await ctx.jobs.wait(jobId);
    if (!json) progress.end();
    if (finished.status === 'cancelled' && interrupt.state.interrupted) throw new CliError(`cancelled: ${what} (nothing was charged)`, 130);
    if (finished.status !== 'succeeded') throw new CliError(`${what} ${finished.status}: ${finished.error ?? ''}`);
    return finished.result;
  } finally {
    off();
    interrupt.dispose();
  }
}

function previewText(p: SynthesisPreview): string {
  const noise = p.noise.kind === 'gaussian' ? `σ = ${p.noise.sigma.toPrecision(5)}` : `ε/token = ${p.noise.epsilonPerToken.toPrecision(5)}`;
  return [
    `Preview on the public split of "${p.dataset}": the job's settings and noise (${noise}, as for ε ≤ ${p.epsilon.toPrecision(4)} at δ = ${p.delta.toExponential(2)}); nothing charged, no private record read.`,
    ...p.demonstrations.map((d, i) => `${i + 1}. ${d.label !== undefined ? `[${d.label}] ` : ''}${JSON.stringify(d.text)}${d.output !== undefined ? ` → ${JSON.stringify(d.output)}` : ''}`),
    utilityText(p.utility),
  ].join('\n');
}

interface RunLikeOptions extends ModelOptions {
  dataDir: string;
  json?: boolean;
  out?: string;
  overwrite?: boolean;
  format: string;
  heldOut?: string;
}

type Request = MethodInput<'synth.plan'>;

export function registerSynthChecks(
  synth: Command,
  runOptions: (command: Command) => Command,
  request: (ctx: ServiceContext, opts: RunLikeOptions) => Promise<Request>,
): void {
  synth
    .command('evaluate')
    .description('utility check of a run on the held-out split: DP prompt, zero-shot, real public demonstrations, most common label')
    .argument('<run>', 'run id')
    .option('--held-out <n>', `held-out examples to score (default ${DEFAULT_HELD_OUT})`)
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (run: string, opts: { heldOut?: string; dataDir: string; json?: boolean }) => {
      const id = numberOption('run', run)!;
      const limit = numberOption('--held-out', opts.heldOut) ?? DEFAULT_HELD_OUT;
      const utility = await withServices(opts.dataDir, (ctx) =>
        runFree(ctx, `utility check of run ${id}`, opts.json, async () => (await callMethod(ctx, 'synth.evaluate', { id, limit })).jobId),
      );
      printResult(opts.json, utility, () => utilityText(utility as Utility));
    });

  runOptions(synth.command('preview').description('run the job on the PUBLIC split as if private, with its utility check (free: charges nothing, reads no private record)'))
    .option('--held-out <n>', `held-out examples of the utility check (default ${DEFAULT_HELD_OUT})`)
    .action(async (opts: RunLikeOptions) => {
      if (opts.format !== 'json') throw new CliError('a preview is not a release: it is printed or written as JSON only (--format json)', 2);
      const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
      const limit = numberOption('--held-out', opts.heldOut) ?? DEFAULT_HELD_OUT;
      const result = await withServices(opts.dataDir, async (ctx) => {
        const job = await request(ctx, opts);
        const raw = await runFree(ctx, `preview on "${job.dataset}"`, opts.json, async (interrupt) => {
          await useModel(ctx, opts, job.teachers, interrupt.follow);
          interrupt.checkpoint();
          if (!opts.json) process.stderr.write(`${modelNotice((await callMethod(ctx, 'model.status', {})).active).line}\n`);
          return (await callMethod(ctx, 'synth.preview', { ...job, limit })).jobId;
        });
        return synthesisPreviewSchema.parse(raw);
      });
      if (out) writeOutput(out, `${JSON.stringify(result, null, 2)}\n`);
      printResult(opts.json, result, () => previewText(result));
    });
}
