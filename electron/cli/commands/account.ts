/**
 * `veil account …`: privacy accounting from the command line, no data directory needed.
 *   epsilon   ε at δ of a mechanism given by flags (or an event JSON file)
 *   delta     δ at ε, likewise
 *   calibrate the Gaussian noise multiplier σ meeting (ε, δ) for q and T
 * Flags describe T steps of one mechanism (Gaussian σ, Laplace scale, or ε-DP), each on a
 * Poisson(q) sample when q < 1. Answers are certified bounds {lower, estimate, upper}.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { accountDelta, accountEpsilon, type AccountingResult } from '../../../core/accounting';
import type { Bounds } from '../../../core/accounting/accountant';
import { calibrateGaussianSigma } from '../../../core/accounting/calibration';
import { composed, gaussian, laplace, parsePrivacyEvent, poissonSampled, pureDp, type PrivacyEvent } from '../../../core/accounting/events';
import { pldAccountant } from '../../../core/accounting/pld';
import { rdpAccountant } from '../../../core/accounting/rdp';
import { CliError, numberOption, printResult } from '../output';

interface EventFlags {
  event?: string;
  mechanism: string;
  sigma?: string;
  scale?: string;
  eps?: string;
  sensitivity?: string;
  q?: string;
  steps?: string;
  accountant: string;
  json?: boolean;
}

function required(flag: string, raw: string | undefined): number {
  const value = numberOption(flag, raw);
  if (value === undefined) throw new CliError(`${flag} is required`, 2);
  return value;
}

function positive(flag: string, raw: string | undefined, fallback?: number): number {
  const value = raw === undefined && fallback !== undefined ? fallback : required(flag, raw);
  if (!(value > 0)) throw new CliError(`${flag} must be > 0, got ${value}`, 2);
  return value;
}

function probability(flag: string, raw: string | undefined): number {
  const value = required(flag, raw);
  if (!(value > 0 && value < 1)) throw new CliError(`${flag} must be in (0, 1), got ${value}`, 2);
  return value;
}

function samplingAndSteps(opts: { q?: string; steps?: string }): { q: number; steps: number } {
  const q = numberOption('--q', opts.q) ?? 1;
  if (!(q > 0 && q <= 1)) throw new CliError(`--q must be in (0, 1], got ${q}`, 2);
  const steps = numberOption('--steps', opts.steps) ?? 1;
  if (!(Number.isInteger(steps) && steps >= 0)) throw new CliError(`--steps must be a whole number ≥ 0, got ${steps}`, 2);
  return { q, steps };
}

/** The event described by --event FILE, or by the mechanism flags. */
function eventFrom(opts: EventFlags): PrivacyEvent {
  if (opts.event) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(opts.event, 'utf8'));
    } catch (error) {
      throw new CliError(`cannot read the event file ${opts.event}: ${error instanceof Error ? error.message : String(error)}`, 2);
    }
    try {
      return parsePrivacyEvent(json);
    } catch (error) {
      throw new CliError(`${opts.event} is not a privacy event: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, 2);
    }
  }
  const sensitivity = positive('--sensitivity', opts.sensitivity, 1);
  let step: PrivacyEvent;
  if (opts.mechanism === 'gaussian') step = gaussian(positive('--sigma', opts.sigma), sensitivity);
  else if (opts.mechanism === 'laplace') step = laplace(positive('--scale', opts.scale), sensitivity);
  else if (opts.mechanism === 'pure') step = pureDp(positive('--eps', opts.eps));
  else throw new CliError(`--mechanism must be gaussian, laplace or pure, got "${opts.mechanism}"`, 2);
  const { q, steps } = samplingAndSteps(opts);
  return composed(q === 1 ? step : poissonSampled(q, step), steps);
}

/** Ask the chosen accountant ('auto': PLD, RDP where PLD cannot take the event). */
function ask(opts: EventFlags, auto: () => AccountingResult, direct: (a: typeof pldAccountant) => Bounds): AccountingResult {
  if (opts.accountant === 'auto') return auto();
  if (opts.accountant === 'pld') return { accountant: 'pld', bounds: direct(pldAccountant) };
  if (opts.accountant === 'rdp') return { accountant: 'rdp', bounds: direct(rdpAccountant) };
  throw new CliError(`--accountant must be auto, pld or rdp, got "${opts.accountant}"`, 2);
}

const fmt = (x: number): string => (Number.isFinite(x) ? x.toPrecision(6) : String(x));
const boundsText = (b: Bounds): string => `${fmt(b.upper)} (estimate ${fmt(b.estimate)}, certified range [${fmt(b.lower)}, ${fmt(b.upper)}])`;

function withEventFlags(command: Command): Command {
  return command
    .option('--event <file>', 'a privacy event as JSON (instead of the mechanism flags)')
    .option('--mechanism <kind>', 'gaussian | laplace | pure', 'gaussian')
    .option('--sigma <s>', 'Gaussian noise standard deviation')
    .option('--scale <b>', 'Laplace scale')
    .option('--eps <e>', 'ε of a pure ε-DP step')
    .option('--sensitivity <d>', 'sensitivity under add/remove one unit (default 1)')
    .option('--q <q>', 'Poisson sampling rate per step (default 1: no sampling)')
    .option('--steps <t>', 'number of steps (default 1)')
    .option('--accountant <name>', 'auto | pld | rdp', 'auto')
    .option('--json', 'print JSON');
}

/** Run an accounting action, timing it and turning accountant errors into CLI errors. */
function timed<T>(run: () => T): { value: T; seconds: number } {
  const start = performance.now();
  try {
    return { value: run(), seconds: (performance.now() - start) / 1000 };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}

export function registerAccount(program: Command): void {
  const account = program.command('account').description('privacy accounting: ε at δ, δ at ε, noise calibration (PLD with certified bounds; RDP)');

  withEventFlags(account.command('epsilon').description('ε at δ of T steps of a mechanism, or of an event file'))
    .option('--delta <d>', 'δ')
    .action((opts: EventFlags & { delta?: string }) => {
      const delta = probability('--delta', opts.delta);
      const event = eventFrom(opts);
      const { value, seconds } = timed(() => ask(opts, () => accountEpsilon(event, delta), (a) => a.epsilon(event, delta)));
      const result = { epsilon: value.bounds, delta, accountant: value.accountant, ...(value.rdp ? { rdp: value.rdp } : {}), seconds };
      printResult(opts.json, result, () =>
        [`ε ≤ ${boundsText(value.bounds)} at δ = ${delta} (${value.accountant.toUpperCase()}, ${seconds.toFixed(3)} s)`, ...(value.rdp ? [`RDP cross-check: ε ≤ ${fmt(value.rdp.upper)}`] : [])].join('\n'),
      );
    });

  withEventFlags(account.command('delta').description('δ at ε of T steps of a mechanism, or of an event file'))
    .option('--epsilon <e>', 'ε')
    .action((opts: EventFlags & { epsilon?: string }) => {
      const epsilon = required('--epsilon', opts.epsilon);
      if (!(epsilon >= 0)) throw new CliError(`--epsilon must be ≥ 0, got ${epsilon}`, 2);
      const event = eventFrom(opts);
      const { value, seconds } = timed(() => ask(opts, () => accountDelta(event, epsilon), (a) => a.delta(event, epsilon)));
      const result = { delta: value.bounds, epsilon, accountant: value.accountant, ...(value.rdp ? { rdp: value.rdp } : {}), seconds };
      printResult(opts.json, result, () =>
        [`δ ≤ ${boundsText(value.bounds)} at ε = ${epsilon} (${value.accountant.toUpperCase()}, ${seconds.toFixed(3)} s)`, ...(value.rdp ? [`RDP cross-check: δ ≤ ${fmt(value.rdp.upper)}`] : [])].join('\n'),
      );
    });

  account
    .command('calibrate')
    .description('smallest Gaussian noise multiplier σ (noise std σ·Δ) meeting (ε, δ) over T Poisson(q)-sampled steps')
    .option('--epsilon <e>', 'target ε')
    .option('--delta <d>', 'target δ')
    .option('--q <q>', 'Poisson sampling rate per step (default 1)')
    .option('--steps <t>', 'number of steps (default 1)')
    .option('--tolerance <r>', 'relative tolerance on σ (default 1e-3)')
    .option('--json', 'print JSON')
    .action((opts: { epsilon?: string; delta?: string; q?: string; steps?: string; tolerance?: string; json?: boolean }) => {
      const epsilon = positive('--epsilon', opts.epsilon);
      const delta = probability('--delta', opts.delta);
      const { q, steps } = samplingAndSteps(opts);
      if (steps === 0) throw new CliError('--steps must be ≥ 1 to calibrate', 2);
      const tolerance = numberOption('--tolerance', opts.tolerance);
      const { value, seconds } = timed(() => calibrateGaussianSigma({ q, steps, epsilon, delta, tolerance }));
      const result = { sigma: value.sigma, epsilon: value.epsilon, delta, accountant: 'pld', seconds };
      printResult(opts.json, result, () => `σ = ${fmt(value.sigma)} gives ε ≤ ${boundsText(value.epsilon)} at δ = ${delta} (PLD, ${seconds.toFixed(3)} s)`);
    });
}
