/**
 * `veil ask …`: private answers from the private split (DP-ICL), through the same services,
 * ledger and jobs as the app. `veil ask --dataset NAME (--query TEXT | --queries FILE)
 * --epsilon E [--aggregation vote|embedding|keyword|ptr] [--per-query] [--ensemble M]
 * [--shots N] [--sga-depth D] [--sga-candidates K] [--selection model|nearest] [--no-public-data]
 * [--model …] [--out FILE] [--evaluate [N]] [--json]` reserves the batch, answers
 * and prints (or writes) the veil.dp-answers/v1 document; `veil ask plan …` prices it and
 * spends nothing; `veil ask list` lists runs. Ctrl+C cancels the batch (its reservation stays
 * charged) and exits 130. `veil certificate verify FILE` checks an export.
 */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import type { ServiceContext } from '../../services/context';
import { defaultDataDir } from '../../services/dataDir';
import type { AnswerPlanDto, AnswerProgress, AnswerRunDto } from '../../shared/api/answering';
import type { MethodInput } from '../../shared/contract';
import { outputFile, writeOutput } from '../files';
import { progressLine } from '../progressLine';
import { interruptible, useModel, type ModelOptions } from '../jobControl';
import { CliError, numberOption, printResult, tableOption } from '../output';
import { readQueries } from '../queriesFile';
import { withServices } from '../withServices';

interface AskOptions {
  dataset?: string;
  query?: string[];
  queries?: string;
  column?: string;
  aggregation?: string;
  epsilon?: string;
  perQuery?: boolean;
  delta?: string;
  ensemble?: string;
  shots?: string;
  keywords?: string;
  candidates?: string;
  maxTokens?: string;
  instruction?: string;
  evaluate?: string | boolean;
  sgaDepth?: string;
  sgaCandidates?: string;
  selection?: string;
  publicData?: boolean;
  dataDir: string;
  json?: boolean;
}

interface RunOptions extends AskOptions, ModelOptions {
  out?: string;
  overwrite?: boolean;
}

type Request = MethodInput<'ask.plan'>;

const AGGREGATIONS = { vote: 'vote', embedding: 'embedding', keyword: 'keyword', ptr: 'ptr', sga: 'sga' } as const;
const SELECTIONS = { model: 'model', nearest: 'nearest' } as const;
/** Held-out records answered by --evaluate without a number. */
const DEFAULT_EVALUATE = 100;

function request(opts: AskOptions): Request {
  if (opts.dataset === undefined || opts.epsilon === undefined) throw new CliError('--dataset and --epsilon are required', 2);
  const evaluate = opts.evaluate === undefined || opts.evaluate === false ? undefined : opts.evaluate === true ? DEFAULT_EVALUATE : numberOption('--evaluate', opts.evaluate);
  const given = [opts.query !== undefined, opts.queries !== undefined, evaluate !== undefined].filter(Boolean).length;
  if (given !== 1) throw new CliError('give exactly one of --query TEXT (repeatable), --queries FILE or --evaluate [N]', 2);
  const n = numberOption;
  const fields: Partial<Request> = {
    dataset: opts.dataset,
    epsilon: n('--epsilon', opts.epsilon),
    queries: opts.query ?? (opts.queries === undefined ? undefined : readQueries(opts.queries, opts.column)),
    aggregation: opts.aggregation === undefined ? undefined : tableOption('--aggregation', AGGREGATIONS, opts.aggregation),
    perQuery: opts.perQuery,
    delta: n('--delta', opts.delta),
    ensemble: n('--ensemble', opts.ensemble),
    shots: n('--shots', opts.shots),
    keywords: n('--keywords', opts.keywords),
    candidates: n('--candidates', opts.candidates),
    maxTokens: n('--max-tokens', opts.maxTokens),
    instruction: opts.instruction,
    evaluate,
    sgaDepth: n('--sga-depth', opts.sgaDepth),
    sgaCandidates: n('--sga-candidates', opts.sgaCandidates),
    sgaSelection: opts.selection === undefined ? undefined : tableOption('--selection', SELECTIONS, opts.selection),
    publicData: opts.publicData === false ? false : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Request;
}

function planText(plan: AnswerPlanDto): string {
  const n = plan.noise;
  const noise = n.kind === 'pure' ? `ε/query = ${n.epsilonPerQuery.toPrecision(5)}` : n.kind === 'sga' ? `ρ/query = ${n.rho.toPrecision(5)}` : `${n.kind === 'discrete-gaussian' ? 'discrete ' : ''}σ = ${n.sigma.toPrecision(5)}`;
  const budget = plan.budget
    ? `budget: ${plan.budget.spent.toPrecision(4)} spent of ${plan.budget.cap}; after: ${plan.budget.afterJob.toPrecision(4)}; ${plan.budget.atLimit ? 'at least ' : ''}${plan.budget.batchesLeft} more such batches fit`
    : 'no budget set';
  return [
    `${plan.queries} ${plan.queries === 1 ? 'query' : 'queries'} by ${plan.aggregation}: ${noise}; q = ${plan.q.toPrecision(3)}; ε ≤ ${plan.epsilon.upper.toPrecision(5)} at δ = ${plan.delta} (${plan.accountant})`,
    budget,
    ...plan.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

function answersText(run: AnswerRunDto): string {
  const doc = run.document!;
  const labels = doc.task.labels;
  const lines = doc.answers.map((a, i) => {
    const extra = a.histogram
      ? ` [${a.histogram.map((h, j) => `${labels[j]}: ${h}`).join(', ')}]`
      : a.keywords
        ? ` [keywords: ${a.keywords.join(', ')}]`
        : a.ptrPassed === false
          ? ' [PTR failed: zero-shot answer]'
          : a.candidates
            ? `\n   public candidates: ${a.candidates.map((c, j) => `${j + 1}. ${c}${j === a.selected ? ' (released)' : ''}`).join(' | ')}`
            : '';
    return `${i + 1}. ${a.answer}${extra}`;
  });
  const e = run.evaluation;
  const evaluation = e
    ? [`${e.metric} on ${e.examples} held-out records: private ${e.private.toFixed(3)}, zero-shot (ε = 0) ${e.zeroShot.toFixed(3)}, ensemble without noise (ε = ∞, NOT private) ${e.nonPrivate.toFixed(3)}${e.bestSynthetic ? `, best DP synthetic prompt (run ${e.bestSynthetic.runId}, ε = ${e.bestSynthetic.epsilon}) ${e.bestSynthetic.score.toFixed(3)}` : ''}`,
        ...(e.balanced ? [`balanced accuracy: private ${e.balanced.private.toFixed(3)}, zero-shot ${e.balanced.zeroShot.toFixed(3)}, without noise (NOT private) ${e.balanced.nonPrivate.toFixed(3)}`] : []),
        ...(e.breakEven ? [`break-even: ${e.breakEven.queries === null ? 'over 1,000,000' : e.breakEven.queries} queries at this noise against ${e.breakEven.basis} (ε = ${e.breakEven.synthEpsilon.toPrecision(3)})`] : []),
      ]
    : [];
  return [...lines, ...evaluation, `ε ≤ ${doc.certificate.epsilon.upper.toPrecision(4)} at δ = ${doc.certificate.delta}; ledger entry ${doc.certificate.ledger.entryId}`].join('\n');
}

async function ask(opts: RunOptions): Promise<void> {
  const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
  const job = request(opts);
  const run = await withServices(opts.dataDir, async (ctx: ServiceContext) => {
    const interrupt = interruptible(ctx);
    try {
      await useModel(ctx, opts, job.ensemble, interrupt.follow);
      interrupt.checkpoint();
      const progress = progressLine();
      const off = ctx.subscribe((event, payload) => {
        if (event !== 'ask.progress' || opts.json) return;
        const p = payload as AnswerProgress;
        progress.update(`query ${p.queriesDone}`, `${p.queriesDone}/${p.queriesTotal} queries, teacher ${p.teachersDone}/${p.teachersTotal}`);
      });
      const { jobId, runId } = await callMethod(ctx, 'ask.start', job);
      interrupt.follow(jobId);
      const finished = await ctx.jobs.wait(jobId);
      off();
      progress.end();
      if (finished.status === 'cancelled' && interrupt.state.interrupted) throw new CliError(`cancelled: run ${runId}; its reserved budget stays charged`, 130);
      if (finished.status !== 'succeeded') throw new CliError(`run ${runId} ${finished.status}: ${finished.error ?? ''} (the reserved budget stays spent)`);
      const result = await callMethod(ctx, 'ask.get', { id: runId });
      return { run: result, file: await callMethod(ctx, 'ask.export', { id: runId }) };
    } finally {
      interrupt.dispose();
    }
  });
  if (out) writeOutput(out, run.file.content);
  const { document: _document, ...summary } = run.run;
  printResult(opts.json, { ...summary, answers: run.run.document!.answers, certificate: run.run.document!.certificate, out: out?.path ?? null }, () =>
    `${answersText(run.run)}${out ? `\nrun ${run.run.id}: wrote ${out.path}` : ''}`,
  );
}

function askOptions(command: Command): Command {
  return command
    .option('--dataset <name>', 'dataset whose private split answers')
    .option('--query <text>', 'a question (repeat for several)', (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('--queries <file>', 'questions: one per line, or a .csv / .jsonl file with a column')
    .option('--column <name>', 'with a .csv / .jsonl --queries file: the column (default query, question or text)')
    .option('--evaluate [n]', `answer n held-out records and score them (default ${DEFAULT_EVALUATE})`)
    .option('--epsilon <e>', 'ε of the whole batch (or of each query with --per-query)')
    .option('--per-query', 'ε is per query; the batch costs their composition')
    .option('--delta <d>', 'δ (default: the dataset budget δ)')
    .option('--aggregation <a>', 'vote | embedding | keyword | ptr | sga (default: vote for classification; for generation sga with public examples, else embedding)')
    .option('--sga-depth <d>', 'sga: split levels of the private clustering, up to 2^d clusters (default 2)')
    .option('--sga-candidates <k>', 'sga: candidates, the public answers nearest to the k largest clusters (default 3)')
    .option('--selection <s>', 'sga: model (the model picks among the candidates, default) | nearest (the largest cluster’s)')
    .option('--no-public-data', 'keyword, ptr: do not add the public ensemble’s answers (default: added when the dataset has public examples)')
    .option('--ensemble <m>', 'teachers M per query (default 10)')
    .option('--shots <n>', 'expected private examples per teacher (default 2)')
    .option('--keywords <k>', 'keywords released (keyword) or largest k (ptr) (default 5)')
    .option('--candidates <n>', 'public zero-shot candidates (default 20)')
    .option('--max-tokens <t>', 'tokens per generated answer (default 48)')
    .option('--instruction <text>', 'instruction of the prompts')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON');
}

export function registerAsk(program: Command): void {
  const group = program.command('ask').description('private answers from the private split (DP-ICL): ask (default), plan, list');
  askOptions(group.command('run', { isDefault: true }).description('reserve the batch and answer (the default subcommand)'))
    .option('--out <file>', 'write the veil.dp-answers/v1 document to this file')
    .option('--overwrite', 'with --out: replace an existing file')
    .option('--model <model>', '"reference", a .gguf file, or an OpenAI-compatible server URL', 'reference')
    .option('--remote-model <name>', 'with a server URL: the model name on the server')
    .option('--api-key-env <var>', 'environment variable holding the server API key', 'VEIL_API_KEY')
    .option('--threads <n>', 'llama.cpp threads (default: half the cores)')
    .action(ask);

  askOptions(group.command('plan').description('calibrate the noise and price a batch against the budget (spends nothing)')).action(async (opts: AskOptions) => {
    const job = request(opts);
    const plan = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'ask.plan', job));
    printResult(opts.json, plan, () => planText(plan));
  });

  group
    .command('list')
    .description('answering runs, newest first')
    .option('--dataset <name>', 'only this dataset')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: { dataset?: string; dataDir: string; json?: boolean }) => {
      const runs = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'ask.list', { dataset: opts.dataset }));
      printResult(opts.json, runs, () => runs.map((r) => `${r.id}\t${r.dataset}\t${r.aggregation}\t${r.queries} queries\tε=${r.epsilon}\t${r.status}`).join('\n') || 'no runs');
    });
}
