/**
 * `veil synth …`: generate (the default: `veil synth --dataset NAME --method tang|adadpsyn
 * --shots N --epsilon E --out FILE`), price, list and export DP synthetic prompts, through
 * the same services, ledger and jobs as the app. A saved plan (`--plan NAME|ID`) supplies
 * the job; `--model` picks the backend for this run. Everything that can be refused is
 * checked before the budget is reserved, the --out file included (electron/cli/files.ts:
 * an existing file is replaced only with --overwrite). Ctrl+C cancels the job (its reserved
 * budget stays charged) and exits 130. `veil certificate verify FILE` checks an export
 * against this data directory's ledger (exit 1 when it does not verify). `synth preview` and
 * `synth evaluate` (free, no reservation) live in synthCheck.ts.
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import type { ServiceContext } from '../../services/context';
import { defaultDataDir } from '../../services/dataDir';
import { synthesisRequestFromPlan, type SynthesisProgress } from '../../shared/api/synthesis';
import type { MethodInput } from '../../shared/contract';
import { outputFile, parseJsonText, readTextFile, writeOutput } from '../files';
import { withServices } from '../withServices';
import { substitutionNote } from '../../../core/icl/teacherEvaluation';
import { interruptible, useModel, type ModelOptions } from '../jobControl';
import { CliError, numberOption, printResult, SAMPLING_MODES, SYNTH_METHODS, tableOption } from '../output';
import { modelNotice } from '../../shared/modelNotice';
import { registerSynthChecks } from './synthCheck';
import { progressLine } from '../progressLine';

interface JobOptions {
  dataset?: string;
  epsilon?: string;
  delta?: string;
  method?: string;
  labels?: string;
  shots?: string;
  teachers?: string;
  perTeacher?: string;
  topK?: string;
  maxTokens?: string;
  rounds?: string;
  sampling?: string;
  instruction?: string;
  plan?: string;
  dataDir: string;
  json?: boolean;
}

interface RunOptions extends JobOptions, ModelOptions {
  out?: string;
  overwrite?: boolean;
  format: string;
}

type Request = MethodInput<'synth.plan'>;
type ExportFormat = MethodInput<'synth.export'>['format'];

const FORMATS: Record<string, ExportFormat> = { json: 'json', md: 'markdown', markdown: 'markdown', chat: 'chat', text: 'text', txt: 'text' };

/** A saved plan by id or name (`veil plan --list` shows both). */
async function savedPlan(ctx: ServiceContext, ref: string) {
  const plans = await callMethod(ctx, 'plan.list', {});
  const matches = /^\d+$/.test(ref) ? plans.filter((p) => p.id === Number(ref)) : plans.filter((p) => p.name === ref);
  if (matches.length === 0) throw new CliError(`no saved plan "${ref}" (veil plan --list shows them)`, 2);
  if (matches.length > 1) throw new CliError(`${matches.length} saved plans are named "${ref}": pass the id (${matches.map((p) => p.id).join(', ')})`, 2);
  try {
    return synthesisRequestFromPlan(matches[0]);
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
}

/** The request: the saved plan's fields, if any, overridden by the options given. */
async function request(ctx: ServiceContext, opts: JobOptions): Promise<Request> {
  const base: Partial<Request> = opts.plan ? await savedPlan(ctx, opts.plan) : {};
  const n = numberOption;
  const given: Partial<Request> = {
    dataset: opts.dataset,
    method: opts.method === undefined ? undefined : tableOption('--method', SYNTH_METHODS, opts.method),
    labels: opts.labels?.split(',').map((l) => l.trim()).filter(Boolean),
    epsilon: n('--epsilon', opts.epsilon),
    delta: n('--delta', opts.delta),
    shots: n('--shots', opts.shots),
    teachers: n('--teachers', opts.teachers),
    perTeacher: n('--per-teacher', opts.perTeacher),
    topK: n('--top-k', opts.topK),
    maxTokens: n('--max-tokens', opts.maxTokens),
    rounds: n('--rounds', opts.rounds),
    sampling: opts.sampling === undefined ? undefined : tableOption('--sampling', SAMPLING_MODES, opts.sampling),
    instruction: opts.instruction,
  };
  const merged = { ...base, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  if (merged.dataset === undefined || merged.epsilon === undefined) throw new CliError('--dataset and --epsilon are required (or --plan NAME|ID)', 2);
  return { ...merged, dataset: merged.dataset, epsilon: merged.epsilon };
}

function jobOptions(command: Command): Command {
  return command
    .option('--dataset <name>', 'dataset whose private split is used')
    .option('--epsilon <e>', 'total ε of the job')
    .option('--delta <d>', 'δ (default: the dataset budget δ)')
    .option('--method <m>', 'tang (= dp-few-shot-gaussian) | tang-exponential | adadpsyn (default tang)')
    .option('--labels <a,b>', 'public labels to generate for (default: all)')
    .option('--shots <n>', 'demonstrations (default 4)')
    .option('--teachers <m>', 'teachers M per token (default 10)')
    .option('--per-teacher <n>', 'expected examples per teacher N (default 2)')
    .option('--top-k <k>', 'candidate tokens K (default 100)')
    .option('--max-tokens <t>', 'T_max per demonstration (default 64)')
    .option('--rounds <r>', 'AdaDPSyn rounds T̂ (default 2)')
    .option('--sampling <mode>', 'per-token | per-demonstration: draw the teachers for every token, or once per demonstration (KV-cache reuse, far faster on real models; charged as one subsampled composition per demonstration) (default per-token)')
    .option('--instruction <text>', 'instruction of the prompt')
    .option('--plan <name|id>', 'use a saved plan (veil plan --save); options given override it')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON');
}

async function generate(opts: RunOptions): Promise<void> {
  const format = tableOption('--format', FORMATS, opts.format);
  const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
  const result = await withServices(opts.dataDir, async (ctx) => {
    const interrupt = interruptible(ctx);
    try {
      const job = await request(ctx, opts);
      interrupt.checkpoint();
      await useModel(ctx, opts, job.teachers, interrupt.follow);
      interrupt.checkpoint();
      if (!opts.json) process.stderr.write(`${modelNotice((await callMethod(ctx, 'model.status', {})).active).line}\n`);
      const progress = progressLine();
      const off = ctx.subscribe((event, payload) => {
        if (event !== 'synth.progress' || opts.json) return;
        const p = payload as SynthesisProgress;
        progress.update(`demonstration ${p.demonstrationsDone}`, `${p.demonstrationsDone}/${p.demonstrationsTotal} demonstrations, ${p.stepsDone}/${p.stepsMax} token steps`);
      });
      const { jobId, runId } = await callMethod(ctx, 'synth.start', job);
      interrupt.follow(jobId);
      const finished = await ctx.jobs.wait(jobId);
      off();
      progress.end();
      if (finished.status === 'cancelled' && interrupt.state.interrupted) {
        throw new CliError(`cancelled: run ${runId}; its reserved ε=${job.epsilon} stays charged`, 130);
      }
      if (finished.status !== 'succeeded') throw new CliError(`run ${runId} ${finished.status}: ${finished.error ?? ''} (the reserved budget stays spent)`);
      const { teachers } = await callMethod(ctx, 'synth.get', { id: runId });
      if (teachers?.substituted) process.stderr.write(`veil: note: ${substitutionNote(teachers)}\n`);
      return { runId, ...(await callMethod(ctx, 'synth.export', { id: runId, format })) };
    } finally {
      interrupt.dispose();
    }
  });
  if (out) writeOutput(out, result.content);
  printResult(opts.json, { ...result, out: out?.path ?? null }, () => (out ? `run ${result.runId}: wrote ${out.path}` : result.content));
}

function runOptions(command: Command): Command {
  return jobOptions(command)
    .option('--out <file>', 'write the export to this file (default: print it)')
    .option('--overwrite', 'with --out: replace an existing file')
    .option('--format <f>', 'json | md | chat | text (the prompt alone)', 'json')
    .option('--model <model>', '"reference", a .gguf file, or an OpenAI-compatible server URL', 'reference')
    .option('--remote-model <name>', 'with a server URL: the model name on the server')
    .option('--api-key-env <var>', 'environment variable holding the server API key', 'VEIL_API_KEY')
    .option('--threads <n>', 'llama.cpp threads (default: half the cores)');
}

export function registerSynth(program: Command): void {
  const synth = program.command('synth').description('DP synthetic few-shot prompts: generate (default), plan, preview, evaluate, list, export');

  const run = runOptions(synth.command('run', { isDefault: true }).description('reserve the budget and generate (the default subcommand)')).action(generate);
  // `veil synth --help` shows the default subcommand's generation flags too (they were only in `synth run --help`).
  synth.addHelpText('after', () => {
    const lines = run.helpInformation().split('\n');
    return `\nveil synth [run] — generation flags:\n${lines.slice(lines.indexOf('Options:') + 1).join('\n')}`;
  });

  registerSynthChecks(synth, runOptions, request);

  jobOptions(synth.command('plan').description('calibrate the noise and price a job against the budget (spends nothing)')).action(async (opts: JobOptions) => {
    const plan = await withServices(opts.dataDir, async (ctx) => callMethod(ctx, 'synth.plan', await request(ctx, opts)));
    printResult(opts.json, plan, () => {
      const noise = plan.noise.kind === 'gaussian' ? `σ = ${plan.noise.sigma.toPrecision(5)}` : `ε/token = ${plan.noise.epsilonPerToken.toPrecision(5)}`;
      const budget = plan.budget ? `budget: ${plan.budget.spent.toPrecision(4)} spent of ${plan.budget.cap}; after: ${plan.budget.afterJob.toPrecision(4)}` : 'no budget set';
      const sizes = plan.sizeEpsilon === null
        ? 'pool sizes: declared public (exact, nothing charged for them)'
        : `pool sizes: exact here, shown to you only; the job first charges noisy sizes as their own ledger entry (ε = ${plan.sizeEpsilon}, spent even if the job is then refused)`;
      return [`${noise}; ε ≤ ${plan.epsilon.upper.toPrecision(5)} at δ = ${plan.delta} (${plan.accountant})`, sizes, budget, ...plan.warnings.map((w) => `warning: ${w}`)].join('\n');
    });
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
    .option('--format <f>', 'json | md | chat | text (the prompt alone)', 'json')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--overwrite', 'with --out: replace an existing file')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .action(async (run: string, opts: { format: string; out?: string; overwrite?: boolean; dataDir: string }) => {
      const id = numberOption('run', run)!;
      const format = tableOption('--format', FORMATS, opts.format);
      const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
      const file = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'synth.export', { id, format }));
      if (out) writeOutput(out, file.content);
      else process.stdout.write(file.content);
    });

  program
    .command('certificate')
    .description('privacy certificates of exported DP prompts, DP answers and augmentations')
    .command('verify')
    .description('check an exported DP prompt against its certificate and this ledger (exit 1 if invalid)')
    .argument('<file>', 'a veil.dp-prompt/v1, veil.dp-answers/v1 or veil.augmentation/v1 JSON file')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { dataDir: string; json?: boolean }) => {
      // Checked here, so a file that is not JSON is one line that quotes none of it.
      const text = readTextFile(file);
      try {
        parseJsonText(text, file);
      } catch (error) {
        throw new CliError(`${(error as Error).message}: not a veil.dp-prompt/v1 document`, 1); // invalid: exit 1, as a failed check
      }
      const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'certificate.verify', { document: text }));
      printResult(opts.json, result, () => result.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n'));
      if (!result.valid) throw new CliError(`${file}: the certificate does not verify (${result.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')})`);
    });
}
