/**
 * `veil ledger …`: show, verify, export and report a dataset's privacy ledger, and record
 * a release made outside Veil (through the same reserve/commit path as the app).
 */
import type { Command } from 'commander';
import { privacyEventSchema, type PrivacyEvent } from '../../../core/accounting/events';
import { callMethod, issuesLine } from '../../services/api';
import { defaultDataDir } from '../../services/dataDir';
import { describeEvent } from '../../../core/accounting/describeEvent';
import { epsilonNumber, type EpsilonBound, type LedgerEntryDto, type LedgerSummary, type VerificationDto } from '../../shared/api/ledger';
import type { MethodInput } from '../../shared/contract';
import { outputFile, readJsonFile, readTextFile, writeOutput, type OutputFile } from '../files';
import { CliError, printResult } from '../output';
import { withServices } from '../withServices';

/** The privacy event in a file; a problem is named by field, never by what the file holds. */
function readEvent(file: string): PrivacyEvent {
  const parsed = privacyEventSchema.safeParse(readJsonFile(file, '--event'));
  if (!parsed.success) throw new CliError(`--event ${file} is not a privacy event: ${issuesLine(parsed.error.issues)}`, 2);
  return parsed.data;
}

const num = (x: EpsilonBound | null) => (x === null ? '—' : Number.isFinite(epsilonNumber(x)) ? epsilonNumber(x).toPrecision(4) : '∞');

/** "ε(δ): 1e-10 → ∞, …, 1e-6 → 1.000": the curve, naming the points without a finite ε. */
function curveText(curve: LedgerSummary['curve']): string[] {
  if (curve.length === 0) return [];
  const lines = [`ε(δ) upper bounds: ${curve.map((p) => `δ=${p.delta.toExponential(0)} → ${num(p.epsilon)}`).join(', ')}`];
  if (curve.some((p) => p.epsilon === 'Infinity')) lines.push('  (∞: no finite ε at that δ — a release was charged as (ε, δ₀)-DP with δ₀ above it)');
  return lines;
}

function entryLine(e: LedgerEntryDto): string {
  const what =
    e.type === 'budget' ? `cap ε=${num(e.epsilonCap)}, δ=${e.delta!.toExponential(2)}`
    : e.type === 'reserve' ? `${e.event ? describeEvent(e.event) : '(unreadable event)'}; ε spent after: ${num(e.spentEpsilon)}; ${e.statusText}`
    : `commits #${e.reservationId}`;
  return `  #${e.seq} ${e.createdAt} ${e.type.padEnd(7)} ${what}  “${e.purpose}” (${e.actor})`;
}

export function summaryText(s: LedgerSummary): string {
  const b = s.budget;
  return [
    `dataset "${s.dataset.name}" (id ${s.dataset.id})`,
    b ? `ε spent ${num(s.spent.epsilon.upper)} of cap ${num(b.epsilon)} at δ=${b.delta.toExponential(2)} (${s.spent.accountant.toUpperCase()} upper bound; RDP cross-check ${num(s.spent.rdp?.upper ?? null)}); remaining ε ${num(s.remainingEpsilon)}` : 'no budget set',
    ...(b && s.spent.epsilon.upper === 'Infinity' ? ['  (∞: no finite ε bounds the spend at this δ — a release was charged with a larger δ₀; further releases are refused)'] : []),
    ...curveText(s.curve),
    `releases: ${s.reservations.committed} committed, ${s.reservations.reserved} in progress, ${s.reservations.orphaned} counted as spent (job did not finish)`,
    `chain head: #${s.head.seq} ${s.head.hash}`,
  ].join('\n');
}

/** To the checked --out file (owner-only: a ledger names datasets and purposes), else stdout. */
function output(content: string, out: OutputFile | undefined): void {
  if (out) writeOutput(out, content, 0o600);
  else process.stdout.write(content);
}

/** "entry 12 (dataset 1, #5)", or the dataset for a problem with the chain as a whole. */
/** Where a problem is: an entry, a dataset's chain, or the ledger as a whole (dataset 0: the expected head, the triggers). */
const problemPlace = (p: VerificationDto['problems'][number]) =>
  p.entryId !== null ? `entry ${p.entryId} (dataset ${p.datasetId}, #${p.seq})` : p.datasetId > 0 ? `dataset ${p.datasetId}` : 'the ledger';

/** The verification report: each chain, then every problem, the first one marked as the first bad entry. */
function verifyText(report: VerificationDto): string {
  const chains = report.chains.map((c) => `dataset ${c.datasetId}: ${c.entries} entries, head ${c.head}, ε recorded ${num(c.recordedEpsilon)} / recomputed ${num(c.recomputedEpsilon)}`);
  if (report.ok) return [...chains, 'ledger OK'].join('\n');
  const problems = report.problems.map((p, i) => `  ${problemPlace(p)}: ${p.field} ${p.message}${i === 0 ? '  ← first bad entry' : ''}`);
  return [...chains, `${report.problems.length} problem(s):`, ...problems].join('\n');
}

interface Common {
  dataset: string;
  dataDir: string;
  json?: boolean;
  csv?: boolean;
  out?: string;
  overwrite?: boolean;
}

export function registerLedger(program: Command): void {
  const ledger = program.command('ledger').description('the tamper-evident privacy ledger: show, verify, export, report, record external releases');
  const common = (cmd: Command, datasetRequired = true) =>
    (datasetRequired ? cmd.requiredOption('--dataset <name>', 'dataset name') : cmd.option('--dataset <name>', 'dataset name (default: all)'))
      .option('--data-dir <dir>', 'data directory', defaultDataDir());

  common(ledger.command('show').description("a dataset's spend, budget and entries"))
    .option('--json', 'print JSON (summary and entries)')
    .option('--csv', 'print the entries as CSV')
    .action((opts: Common) =>
      withServices(opts.dataDir, async (ctx) => {
        if (opts.csv) return output((await callMethod(ctx, 'ledger.export', { dataset: opts.dataset, format: 'csv' })).content, undefined);
        const summary = await callMethod(ctx, 'ledger.summary', { dataset: opts.dataset });
        const entries = await callMethod(ctx, 'ledger.entries', { dataset: opts.dataset });
        printResult(opts.json, { summary, entries }, () => [summaryText(summary), 'entries:', ...entries.map(entryLine)].join('\n'));
      }),
    );

  common(ledger.command('verify').description('recompute the hash chains and totals; exits 1 naming the first bad entry'), false)
    .option('--expect-head <hash>', 'a chain head kept elsewhere (export, printed report) that must still be in the chain')
    .option('--anchor <file>', 'a copy of the ledger anchor kept elsewhere (veil ledger anchor --out): its heads must still be in the chains')
    .option('--json', 'print JSON')
    .action((opts: Omit<Common, 'dataset'> & { dataset?: string; expectHead?: string; anchor?: string }) => {
      const anchorCopy = opts.anchor === undefined ? undefined : readTextFile(opts.anchor, '--anchor');
      return withServices(opts.dataDir, async (ctx) => {
        const report = await callMethod(ctx, 'ledger.verify', { dataset: opts.dataset, expectedHead: opts.expectHead, anchorCopy });
        printResult(opts.json, report, () => verifyText(report));
        const first = report.problems[0];
        if (first) {
          const more = report.problems.length - 1;
          throw new CliError(`ledger verification failed at ${problemPlace(first)}: ${first.field} ${first.message}${more ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`, 1);
        }
      });
    });

  common(ledger.command('anchor').description('print or write the ledger anchor (chain heads kept beside the database): a copy to keep elsewhere'), false)
    .option('--out <file>', 'write to a file instead of stdout')
    .option('--overwrite', 'with --out: replace an existing file')
    .option('--json', 'print JSON (file, heads and lines)')
    .action((opts: Omit<Common, 'dataset'> & { dataset?: string }) => {
      const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
      return withServices(opts.dataDir, async (ctx) => {
        const anchor = await callMethod(ctx, 'ledger.anchor', { dataset: opts.dataset });
        if (out) output(anchor.content, out);
        if (out || opts.json) printResult(opts.json, anchor, () => `wrote ${out!.path} (${anchor.heads.map((h) => `dataset ${h.dataset} #${h.seq} ${h.hash}`).join('; ') || 'nothing anchored yet'})`);
        else process.stdout.write(anchor.content);
      });
    });

  common(ledger.command('export').description("write a dataset's full ledger as JSON (verifiable offline) or CSV"))
    .option('--json', 'JSON (default)')
    .option('--csv', 'CSV')
    .option('--out <file>', 'write to a file instead of stdout')
    .option('--overwrite', 'with --out: replace an existing file')
    .action((opts: Common) => {
      const out = opts.out === undefined ? undefined : outputFile(opts.out, { overwrite: opts.overwrite });
      return withServices(opts.dataDir, async (ctx) => {
        const exported = await callMethod(ctx, 'ledger.export', { dataset: opts.dataset, format: opts.csv ? 'csv' : 'json' });
        output(exported.content, out);
      });
    });

  // --dataset and --out are checked together: one message names every missing one.
  common(ledger.command('report').description('write the printable HTML budget report (entries, totals, ε(δ) curve, chain head, anchor)'), false)
    .option('--out <file>', 'output .html file (required)')
    .option('--overwrite', 'replace an existing file')
    .option('--json', 'print JSON')
    .action((opts: Common) => {
      const missing = [opts.dataset === undefined && '--dataset <name>', opts.out === undefined && '--out <file>'].filter(Boolean);
      if (missing.length > 0) throw new CliError(`ledger report needs ${missing.join(' and ')}`, 2);
      const out = outputFile(opts.out!, { overwrite: opts.overwrite });
      return withServices(opts.dataDir, async (ctx) => {
        const report = await callMethod(ctx, 'ledger.report', { dataset: opts.dataset });
        output(report.html, out);
        printResult(opts.json, { path: out.path, head: report.head }, () => `wrote ${out.path} (chain head ${report.head})`);
      });
    });

  common(ledger.command('record').description('charge a release made outside Veil (reserve, then commit)'))
    .requiredOption('--event <file>', 'JSON file with the privacy event')
    .requiredOption('--purpose <text>', 'what was released and why (no private text)')
    .option('--parameters <file>', 'JSON file with the release parameters')
    .option('--json', 'print JSON')
    .action((opts: Common & { event: string; purpose: string; parameters?: string }) => {
      // The app refuses a blank purpose too: the ledger must say what each release was.
      if (!opts.purpose.trim()) throw new CliError('--purpose is blank: say what was released and why (no private text)', 2);
      const event = readEvent(opts.event);
      const parameters = opts.parameters ? readJsonFile(opts.parameters, '--parameters') : undefined;
      return withServices(opts.dataDir, async (ctx) => {
        const input: MethodInput<'ledger.record'> = { dataset: opts.dataset, event, purpose: opts.purpose, parameters: parameters as MethodInput<'ledger.record'>['parameters'] };
        const recorded = await callMethod(ctx, 'ledger.record', input);
        // The release is charged and committed: whatever fails from here on must not read as a
        // failed charge (a retry would charge it twice), so it is a warning and the exit is 0.
        let summary: LedgerSummary | null = null;
        try {
          summary = await callMethod(ctx, 'ledger.summary', { dataset: opts.dataset });
        } catch (error) {
          process.stderr.write(`veil: warning: entry ${recorded.reservation.id} was recorded and committed, but the summary could not be computed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)} (do not record the release again)\n`);
        }
        printResult(opts.json, { ...recorded, summary }, () =>
          [`recorded entry ${recorded.reservation.id} (committed by ${recorded.commit.id})`, ...(summary ? [summaryText(summary)] : [])].join('\n'));
      });
    });

  common(ledger.command('remaining').description('how many more releases like an event fit under the cap'))
    .requiredOption('--event <file>', 'JSON file with the privacy event')
    .option('--json', 'print JSON')
    .action((opts: Common & { event: string }) => {
      const event = readEvent(opts.event);
      return withServices(opts.dataDir, async (ctx) => {
        const left = await callMethod(ctx, 'ledger.remaining', { dataset: opts.dataset, event });
        printResult(opts.json, left, () => `${left.atLimit ? 'at least ' : ''}${left.count} more release(s) of this kind fit: ${describeEvent(event)}`);
      });
    });
}
