/**
 * `veil plan …`: price a workload on a dataset before running it — the same `plan.compute`
 * the Budget page calls, so the numbers are the page's — and save / list / delete plans.
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import type { PlanResult } from '../../shared/api/planner';
import type { MethodInput } from '../../shared/contract';
import { CliError, numberOption, printResult, SAMPLING_MODES, SYNTH_METHODS, tableOption } from '../output';
import { withServices } from '../withServices';
import { samplingModeLines } from '../../shared/samplingModesText';

interface PlanOptions {
  workload: string;
  dataset: string;
  epsilon: string;
  delta?: string;
  method?: string;
  shots?: string;
  teachers?: string;
  perTeacher?: string;
  topK?: string;
  maxTokens?: string;
  rounds?: string;
  sampling?: string;
  ensemble?: string;
  queries?: string;
  aggregation?: string;
  sgaDepth?: string;
  save?: string;
  list?: boolean;
  delete?: string;
  dataDir: string;
  json?: boolean;
}

type PlanInput = MethodInput<'plan.compute'>;
type AnswerInput = Extract<PlanInput['workload'], { kind: 'answer' }>;

export function planRequest(opts: PlanOptions): PlanInput {
  const n = numberOption;
  let workload: PlanInput['workload'];
  if (opts.workload === 'synth') {
    workload = {
      kind: 'synth', method: opts.method === undefined ? undefined : tableOption('--method', SYNTH_METHODS, opts.method), shots: n('--shots', opts.shots), teachers: n('--teachers', opts.teachers),
      perTeacher: n('--per-teacher', opts.perTeacher), topK: n('--top-k', opts.topK), maxTokens: n('--max-tokens', opts.maxTokens), rounds: n('--rounds', opts.rounds),
      sampling: opts.sampling === undefined ? undefined : tableOption('--sampling', SAMPLING_MODES, opts.sampling),
    };
  } else if (opts.workload === 'answer') {
    workload = {
      kind: 'answer', ensemble: n('--ensemble', opts.ensemble), shots: n('--shots', opts.shots), queries: n('--queries', opts.queries),
      aggregation: opts.aggregation as AnswerInput['aggregation'], sgaDepth: n('--sga-depth', opts.sgaDepth),
    };
  } else throw new CliError(`--workload must be synth or answer, got "${opts.workload}"`, 2);
  return { dataset: opts.dataset, epsilon: n('--epsilon', opts.epsilon)!, delta: n('--delta', opts.delta), workload };
}

const fmt = (x: number) => x.toPrecision(4);

export function planText(p: PlanResult): string {
  const noise =
    p.noise.kind === 'gaussian' ? `σ = ${fmt(p.noise.sigma)} (noise multiplier ${fmt(p.noise.multiplier)})`
    : p.noise.kind === 'sga' ? `ρ = ${fmt(p.noise.rho)}: ε per split level = ${fmt(p.noise.levelEpsilon)}, σ counts = ${fmt(p.noise.sigmaCount)}, σ sums = ${fmt(p.noise.sigmaSum)}`
    : `ε per step = ${fmt(p.noise.epsilonPerStep)}`;
  const kind = p.request.workload.kind === 'synth' ? 'synthetic prompts' : 'answering workloads';
  const be = p.breakEven;
  return [
    `${p.request.workload.kind === 'synth' ? 'synthetic prompt' : `${p.request.workload.queries} private answers`} on "${p.request.dataset}" (N = ${p.units} privacy units)`,
    `noise: ${noise}; sampling: ${p.samplingRates.map((r) => `${r.pool} q=${fmt(r.q)}`).join(', ')}`,
    `ε at δ=${p.delta.toExponential(2)}: ${fmt(p.epsilon.upper)} (${p.accountant.toUpperCase()} bounds [${fmt(p.epsilon.lower)}, ${fmt(p.epsilon.upper)}]${p.rdpEpsilon === null ? '' : `; RDP ${fmt(p.rdpEpsilon)}`})`,
    `break-even: ${be.queries === null ? 'beyond 1,000,000 queries' : `${be.queries} queries`} cost more than one synthetic prompt (ε ${fmt(be.synthEpsilon)}), at the ${be.basis}`,
    p.budget ? `budget: ε ${fmt(p.budget.spent)} spent of ${p.budget.cap}; after this plan ${fmt(p.budget.afterPlan)}; ${p.budget.remainingAtLimit ? 'at least ' : ''}${p.budget.remainingRuns} more ${kind} of this kind fit` : 'no budget set for this dataset',
    ...(p.samplingModes ? samplingModeLines(p.samplingModes).map((line) => `sampling ${line}`) : []),
    ...p.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

async function listPlans(opts: PlanOptions): Promise<void> {
  const plans = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'plan.list', { dataset: opts.dataset }));
  printResult(opts.json, plans, () => plans.map((p) => `${p.id}\t${p.name}\t${p.request.dataset}\t${p.request.workload.kind}\tε=${p.request.epsilon}\t${p.createdAt}`).join('\n') || 'no saved plans');
}

async function deletePlan(id: string, opts: PlanOptions): Promise<void> {
  const result = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'plan.delete', { id: numberOption('--delete', id)! }));
  if (!result.deleted) throw new CliError(`no saved plan with id ${id}`);
  printResult(opts.json, result, () => `deleted plan ${id}`);
}

export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description('plan a workload: calibrated noise, ε, break-even, budget left (same numbers as the Budget page)')
    .option('--workload <kind>', 'synth | answer')
    .option('--dataset <name>', 'dataset (its size sets the sampling rate)')
    .option('--epsilon <e>', 'total ε of the planned work')
    .option('--delta <d>', 'δ (default: the budget δ, else min(1/(10·N), 1e-5))')
    .option('--method <m>', 'synth: tang (= dp-few-shot-gaussian) | tang-exponential | adadpsyn (default tang)')
    .option('--shots <n>', 'synth: demonstrations; answer: private examples per teacher')
    .option('--teachers <m>', 'synth: teachers M per token')
    .option('--per-teacher <n>', 'synth: expected examples per teacher')
    .option('--top-k <k>', 'synth: candidate tokens K')
    .option('--max-tokens <t>', 'synth: T_max per demonstration')
    .option('--rounds <r>', 'synth: AdaDPSyn rounds')
    .option('--sampling <mode>', 'synth: per-token | per-demonstration (teachers drawn once per demonstration)')
    .option('--ensemble <n>', 'answer: teachers per query')
    .option('--queries <q>', 'answer: number of queries')
    .option('--aggregation <a>', 'answer: vote | embedding | keyword | sga')
    .option('--sga-depth <d>', 'answer, sga: split levels of the private clustering (default 2)')
    .option('--save <name>', 'save the plan under this name')
    .option('--list', 'list saved plans (of --dataset if given), newest first')
    .option('--delete <id>', 'delete a saved plan')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: PlanOptions) => {
      if (opts.list) return listPlans(opts);
      if (opts.delete !== undefined) return deletePlan(opts.delete, opts);
      if (!opts.workload || !opts.dataset || opts.epsilon === undefined) throw new CliError('veil plan needs --workload synth|answer, --dataset NAME and --epsilon E (see veil plan --help)', 2);
      const input = planRequest(opts);
      const result = await withServices(opts.dataDir, async (ctx) => {
        const computed = await callMethod(ctx, 'plan.compute', input);
        const saved = opts.save ? await callMethod(ctx, 'plan.save', { name: opts.save, request: input }) : null;
        return { ...computed, saved };
      });
      printResult(opts.json, result, () => `${planText(result)}${result.saved ? `\nsaved as plan ${result.saved.id} "${result.saved.name}"` : ''}`);
    });
}
