/**
 * `veil audit --dataset NAME --target baseline|FILE|run:N|answering:AGG:EPS[:M:SHOTS] [--target …] --attack label,repeat,inquiry
 * [--members N] [--balance balanced|unbalanced] [--canaries M] [--out report.html|.json] --json`:
 * a membership-inference audit through the same service and job as the app (not charged to
 * the ledger). FILE is a veil.dp-prompt/v1 export or a plain prompt file. Ctrl+C cancels the
 * job (exit 130). `veil audit list` and `veil audit export ID` read stored audits.
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import type { AuditRunDto, AuditTargetSpec } from '../../shared/api/audit';
import { promptFitNote } from '../../shared/auditPromptFit';
import type { MethodInput } from '../../shared/contract';
import { outputFile, readTextFile, writeOutput } from '../files';
import { CliError, numberOption, printResult } from '../output';
import { withServices } from '../withServices';
import { followJob } from '../jobControl';

interface AuditOptions {
  dataset?: string;
  target: string[];
  attack: string;
  members?: string;
  balance: string;
  canaries?: string;
  shots?: string;
  replicates?: string;
  out?: string;
  overwrite?: boolean;
  dataDir: string;
  json?: boolean;
}

type TargetInput = MethodInput<'audit.start'>['targets'][number];

const AGGREGATIONS = ['vote', 'embedding', 'keyword', 'ptr'] as const;

/** answering:AGGREGATION:EPS[:M:SHOTS] — private answering at ε per query, M teachers of SHOTS expected records. */
function answeringTarget(raw: string): TargetInput {
  const m = /^answering:([a-z]+):([0-9.eE+]+)(?::(\d+):(\d+))?$/.exec(raw);
  const aggregation = m?.[1] as (typeof AGGREGATIONS)[number] | undefined;
  const epsilon = Number(m?.[2]);
  if (!m || !AGGREGATIONS.includes(aggregation!) || !(epsilon > 0)) {
    throw new CliError(`--target ${raw}: expected answering:AGGREGATION:EPS[:M:SHOTS] with AGGREGATION one of ${AGGREGATIONS.join(', ')} and EPS > 0 (e.g. answering:vote:1)`, 2);
  }
  return { kind: 'answering', aggregation, epsilon, ...(m[3] === undefined ? {} : { ensemble: Number(m[3]), shots: Number(m[4]) }) };
}

/** baseline | run:N | answering:AGG:EPS[:M:SHOTS] | a file: a veil.dp-prompt/v1 JSON export, else a plain prompt. */
function parseTarget(raw: string, shots: number | undefined): TargetInput {
  if (raw === 'baseline') return { kind: 'baseline', shots };
  if (raw === 'answering' || raw.startsWith('answering:')) return answeringTarget(raw);
  const run = /^run:(\d+)$/.exec(raw);
  if (run) return { kind: 'run', runId: Number(run[1]) };
  const text = readTextFile(raw, '--target');
  const name = basename(raw);
  return /"format"\s*:\s*"veil\.dp-prompt\/v1"/.test(text) ? { kind: 'dp-prompt', document: text, name } : { kind: 'prompt', text, name };
}

const ATTACK_NAMES = ['label', 'repeat', 'inquiry'] as const;

function attacks(raw: string) {
  const names = raw.split(',').map((a) => a.trim()).filter(Boolean);
  for (const a of names) if (!(ATTACK_NAMES as readonly string[]).includes(a)) throw new CliError(`--attack ${a}: expected ${ATTACK_NAMES.join(', ')}`, 2);
  return names as (typeof ATTACK_NAMES)[number][];
}

function summary(run: AuditRunDto): string {
  if (!run.result) return `audit ${run.id}: ${run.status}${run.error ? ` (${run.error})` : ''}`;
  const lines = [`audit ${run.id} of ${run.dataset} (${run.result.model}); not charged to the ledger`];
  for (const t of run.result.targets) {
    lines.push(`${t.name}: accounted ε ${t.accountedEpsilon === null ? '∞ (not private)' : `≤ ${t.accountedEpsilon.toFixed(3)}`}`);
    for (const s of t.scores) {
      const m = s.metrics;
      lines.push(`  ${s.score.padEnd(18)} AUROC ${m.auroc.toFixed(3)} [${m.aurocInterval.lower.toFixed(3)}, ${m.aurocInterval.upper.toFixed(3)}]  TPR@1%FPR ${(100 * m.tprAt1).toFixed(1)}%  TPR@0.1%FPR ${(100 * m.tprAt01).toFixed(1)}%  adv ${m.advantage.toFixed(3)}  (${m.members}/${m.nonMembers})`);
    }
    const fit = promptFitNote(t);
    if (fit) lines.push(`  ${fit}`);
    for (const s of t.skipped) lines.push(`  ${s.attack}: skipped (${s.reason})`);
    lines.push(t.canary ? `  canaries: ${t.canary.correct}/${t.canary.guesses} guesses right of ${t.canary.m} → empirical ε ≥ ${t.canary.epsilonLower.toFixed(3)} (95 %)` : `  canaries: ${t.canarySkipped}`);
  }
  return lines.join('\n');
}

async function runAudit(opts: AuditOptions): Promise<void> {
  if (!opts.dataset) throw new CliError('--dataset is required', 2);
  if (opts.target.length === 0) throw new CliError('--target is required: baseline, run:N, answering:AGG:EPS or a prompt file', 2);
  const format = opts.out?.toLowerCase().endsWith('.json') ? 'json' : 'html';
  const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
  const shots = numberOption('--shots', opts.shots);
  const request: MethodInput<'audit.start'> = {
    dataset: opts.dataset,
    targets: opts.target.map((t) => parseTarget(t, shots)) as AuditTargetSpec[],
    attacks: attacks(opts.attack),
    members: numberOption('--members', opts.members),
    balance: opts.balance === 'unbalanced' ? 'unbalanced' : opts.balance === 'balanced' ? 'balanced' : (() => { throw new CliError('--balance: balanced or unbalanced', 2); })(),
    canaries: numberOption('--canaries', opts.canaries),
    replicates: numberOption('--replicates', opts.replicates),
  };
  const { run, report } = await withServices(opts.dataDir, async (ctx) => {
    const { jobId, auditId } = await callMethod(ctx, 'audit.start', request);
    await followJob(ctx, jobId, `audit ${auditId}`, opts.json);
    return { run: await callMethod(ctx, 'audit.get', { id: auditId }), report: out ? await callMethod(ctx, 'audit.export', { id: auditId, format }) : null };
  });
  if (out && report) writeOutput(out, report.content);
  printResult(opts.json, run, () => summary(run) + (out ? `\nwrote ${out.path}` : ''));
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('membership-inference audits of prompts (not charged to the ledger)');
  audit
    .command('run', { isDefault: true })
    .description('audit targets of a dataset (the default subcommand)')
    .option('--dataset <name>', 'dataset whose private records are audited')
    .option('--target <t>', 'baseline | run:N | answering:AGG:EPS[:M:SHOTS] (private answering, ε per query) | a veil.dp-prompt/v1 file | a prompt file (repeat for several)', collect, [])
    .option('--attack <a,b>', 'label, repeat, inquiry (comma-separated)', 'label,repeat')
    .option('--members <n>', 'members per target (default 100)')
    .option('--balance <b>', 'balanced (1:1) or unbalanced (1:4)', 'balanced')
    .option('--canaries <m>', 'one-run canary audit with m canaries (default 0: none)')
    .option('--shots <n>', 'baseline: demonstrations per prompt (default 4)')
    .option('--replicates <n>', 'bootstrap replicates (default 1000)')
    .option('--out <file>', 'write the report: .html (printable) or .json')
    .option('--overwrite', 'with --out: replace an existing file')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(runAudit);
  audit
    .command('list')
    .description('stored audits, newest first')
    .option('--dataset <name>', 'only this dataset')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: { dataset?: string; dataDir: string; json?: boolean }) => {
      const runs = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'audit.list', { dataset: opts.dataset }));
      printResult(opts.json, runs, () => runs.map((r) => `${r.id}\t${r.dataset}\t${r.status}\t${r.request.targets.map((t) => t.name).join('; ')}`).join('\n') || 'no audits');
    });
  audit
    .command('export')
    .description('write an audit report')
    .argument('<id>', 'audit id')
    .option('--format <f>', 'html | json', 'html')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--overwrite', 'with --out: replace an existing file')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .action(async (id: string, opts: { format: string; out?: string; overwrite?: boolean; dataDir: string }) => {
      if (opts.format !== 'html' && opts.format !== 'json') throw new CliError('--format: html or json', 2);
      const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
      const file = await withServices(opts.dataDir, (ctx) => callMethod(ctx, 'audit.export', { id: numberOption('id', id)!, format: opts.format as 'html' | 'json' }));
      if (out) writeOutput(out, file.content);
      else process.stdout.write(file.content);
    });
}
