/**
 * `veil account …`: privacy accounting from the command line, no data directory needed.
 *   epsilon   ε at δ of T steps of a mechanism (or of an --event file)
 *   delta     δ at ε, likewise
 *   sigma     the noise parameter meeting a target (ε, δ) (alias: calibrate)
 *   compose   ε at δ (or δ at ε) of a sequence of events read from a JSON file
 * The flags describe T steps of one mechanism (Gaussian σ, Laplace scale, or ε-DP), each on
 * a Poisson(q) sample (`--sampling none`: q = 1). Answers are certified bounds
 * {lower, estimate, upper}. `--batch FILE` runs one case per JSON line (fields named like the
 * flags, the command line's flags as defaults) and prints one JSON line per case.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ZodError } from 'zod';
import { chooseAccountant } from '../../../core/accounting';
import type { Accountant, Bounds } from '../../../core/accounting/accountant';
import { calibrate } from '../../../core/accounting/calibration';
import { parsePrivacyEvent, sequence, type PrivacyEvent } from '../../../core/accounting/events';
import { pldAccountant } from '../../../core/accounting/pld';
import { rdpAccountant } from '../../../core/accounting/rdp';
import { noiseDecreasing, STEP_MECHANISMS, stepsEvent, type StepMechanism, type StepsSpec } from '../../../core/accounting/steps';
import { CliError, numberOption, printJson, printResult } from '../output';

/** Flag values by attribute name: strings from the command line; numbers or inline JSON from a batch line. */
type Options = Record<string, unknown>;
interface Answer {
  json: Record<string, unknown>;
  text: string;
}

const NOISE_FLAG: Record<StepMechanism, string> = { gaussian: 'sigma', laplace: 'scale', pure: 'eps' };

function messageOf(error: unknown): string {
  if (error instanceof ZodError) return error.issues.map((i) => `${i.path.join('.') || 'event'}: ${i.message}`).join('; ');
  return error instanceof Error ? error.message : String(error);
}

const number = (opts: Options, name: string): number | undefined => numberOption(`--${name}`, opts[name] === undefined ? undefined : String(opts[name]));

function required(opts: Options, name: string): number {
  const value = number(opts, name);
  if (value === undefined) throw new CliError(`--${name} is required`, 2);
  return value;
}

function positive(opts: Options, name: string, fallback?: number): number {
  const value = opts[name] === undefined && fallback !== undefined ? fallback : required(opts, name);
  if (!(value > 0)) throw new CliError(`--${name} must be > 0, got ${value}`, 2);
  return value;
}

function probability(opts: Options, name: string): number {
  const value = required(opts, name);
  if (!(value > 0 && value < 1)) throw new CliError(`--${name} must be in (0, 1), got ${value}`, 2);
  return value;
}

function choice<T extends string>(opts: Options, name: string, allowed: readonly T[]): T {
  const value = opts[name];
  if (!allowed.includes(value as T)) throw new CliError(`--${name} must be ${allowed.join(', ')}, got "${String(value)}"`, 2);
  return value as T;
}

function stepsSpec(opts: Options): StepsSpec {
  const mechanism = choice(opts, 'mechanism', STEP_MECHANISMS);
  const q = choice(opts, 'sampling', ['poisson', 'none'] as const) === 'none' ? 1 : (number(opts, 'q') ?? 1);
  if (!(q > 0 && q <= 1)) throw new CliError(`--q must be in (0, 1], got ${q}`, 2);
  const steps = number(opts, 'steps') ?? 1;
  if (!(Number.isInteger(steps) && steps >= 0)) throw new CliError(`--steps must be a whole number ≥ 0, got ${steps}`, 2);
  return { mechanism, sensitivity: positive(opts, 'sensitivity', 1), q, steps };
}

/** JSON from a file named by a flag (command line), or given inline (batch line). */
function jsonInput(opts: Options, name: string): unknown {
  const value = opts[name];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(readFileSync(value, 'utf8'));
  } catch (error) {
    throw new CliError(`cannot read the --${name} file ${value}: ${messageOf(error)}`, 2);
  }
}

function parseEvent(json: unknown, what: string): PrivacyEvent {
  try {
    return parsePrivacyEvent(json);
  } catch (error) {
    throw new CliError(`${what} is not a privacy event: ${messageOf(error)}`, 2);
  }
}

/** The event of --event, else of the mechanism flags. */
function eventFrom(opts: Options): PrivacyEvent {
  if (opts.event !== undefined) return parseEvent(jsonInput(opts, 'event'), '--event');
  const spec = stepsSpec(opts);
  return stepsEvent(spec, positive(opts, NOISE_FLAG[spec.mechanism]));
}

/** --events: a JSON array of events, or {"events": [...]}, composed in sequence. */
function eventsFrom(opts: Options): PrivacyEvent {
  if (opts.events === undefined) throw new CliError('--events is required', 2);
  const json = jsonInput(opts, 'events');
  const list = Array.isArray(json) ? json : (json as { events?: unknown } | null)?.events;
  if (!Array.isArray(list)) throw new CliError('--events must hold a JSON array of events or {"events": [...]}', 2);
  return sequence(list.map((e, i) => parseEvent(e, `--events item ${i}`)));
}

/** --accountant auto (PLD, RDP where PLD cannot take the event) | pld | rdp. */
function accountantFor(opts: Options, event: PrivacyEvent): Accountant {
  const name = choice(opts, 'accountant', ['auto', 'pld', 'rdp'] as const);
  return name === 'pld' ? pldAccountant : name === 'rdp' ? rdpAccountant : chooseAccountant(event);
}

/** Run an accounting computation, timing it. */
function timed<T>(run: () => T): { value: T; seconds: number } {
  const start = performance.now();
  const value = run();
  return { value, seconds: (performance.now() - start) / 1000 };
}

const fmt = (x: number): string => (Number.isFinite(x) ? x.toPrecision(6) : String(x));
const boundsText = (b: Bounds): string => `${fmt(b.upper)} (estimate ${fmt(b.estimate)}, certified range [${fmt(b.lower)}, ${fmt(b.upper)}])`;
const by = (accountant: Accountant, seconds: number): string => `(${accountant.name.toUpperCase()}, ${seconds.toFixed(3)} s)`;

function epsilonAnswer(event: PrivacyEvent, opts: Options): Answer {
  const delta = probability(opts, 'delta');
  const accountant = accountantFor(opts, event);
  const { value, seconds } = timed(() => accountant.epsilon(event, delta));
  return {
    json: { epsilon: value, delta, accountant: accountant.name, seconds },
    text: `ε ≤ ${boundsText(value)} at δ = ${delta} ${by(accountant, seconds)}`,
  };
}

function deltaAnswer(event: PrivacyEvent, opts: Options): Answer {
  const epsilon = required(opts, 'epsilon');
  if (!(epsilon >= 0)) throw new CliError(`--epsilon must be ≥ 0, got ${epsilon}`, 2);
  const accountant = accountantFor(opts, event);
  const { value, seconds } = timed(() => accountant.delta(event, epsilon));
  return {
    json: { delta: value, epsilon, accountant: accountant.name, seconds },
    text: `δ ≤ ${boundsText(value)} at ε = ${epsilon} ${by(accountant, seconds)}`,
  };
}

function composeAnswer(opts: Options): Answer {
  const event = eventsFrom(opts);
  if ((opts.delta === undefined) === (opts.epsilon === undefined)) throw new CliError('give either --delta (for ε) or --epsilon (for δ)', 2);
  return opts.delta !== undefined ? epsilonAnswer(event, opts) : deltaAnswer(event, opts);
}

/** The smallest noise (largest ε per step) whose certified upper ε meets the target, by core calibrate(). */
function sigmaAnswer(opts: Options): Answer {
  const target = { epsilon: positive(opts, 'epsilon'), delta: probability(opts, 'delta') };
  const spec = stepsSpec(opts);
  if (spec.steps === 0) throw new CliError('--steps must be ≥ 1 to calibrate', 2);
  const family = (p: number): PrivacyEvent => stepsEvent(spec, p);
  const accountant = accountantFor(opts, family(1));
  const tolerance = number(opts, 'tolerance');
  const { value, seconds } = timed(() => calibrate({ family, target, accountant, tolerance, decreasing: noiseDecreasing(spec.mechanism) }));
  return {
    json: { sigma: value.parameter, epsilon: value.epsilon, delta: target.delta, accountant: accountant.name, seconds },
    text: `--${NOISE_FLAG[spec.mechanism]} ${fmt(value.parameter)} gives ε ≤ ${boundsText(value.epsilon)} at δ = ${target.delta} ${by(accountant, seconds)}`,
  };
}

/** One batch line as options: known fields only; numbers become flag strings, inline JSON stays. */
function batchCase(line: string, fields: Set<string>): Options {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw new CliError(`not JSON: ${messageOf(error)}`, 2);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new CliError('a batch case must be a JSON object', 2);
  const opts: Options = {};
  for (const [key, value] of Object.entries(json)) {
    if (!fields.has(key)) throw new CliError(`unknown field "${key}" (fields: ${[...fields].join(', ')})`, 2);
    opts[key] = typeof value === 'number' ? String(value) : value;
  }
  return opts;
}

/** One JSON line per case; a failing case prints {"line", "error"} and the run exits non-zero at the end. */
function runBatch(command: Command, opts: Options, answer: (opts: Options) => Answer): void {
  const { batch, json: _json, ...defaults } = opts;
  const fields = new Set(command.options.map((o) => o.attributeName()).filter((name) => name !== 'batch' && name !== 'json'));
  let text: string;
  try {
    text = readFileSync(String(batch), 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the --batch file ${String(batch)}: ${messageOf(error)}`, 2);
  }
  let cases = 0;
  let failed = 0;
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    cases++;
    try {
      printJson(answer({ ...defaults, ...batchCase(line, fields) }).json);
    } catch (error) {
      failed++;
      printJson({ line: index + 1, error: messageOf(error) });
    }
  });
  if (failed > 0) throw new CliError(`${failed} of ${cases} batch cases failed`);
}

function withQuery(command: Command, answer: (opts: Options) => Answer): void {
  command
    .option('--accountant <name>', 'auto (PLD; RDP where PLD cannot take the event) | pld | rdp', 'auto')
    .option('--batch <file>', 'one JSON case per line, fields named like the flags; prints one JSON result per line')
    .option('--json', 'print JSON')
    .action((opts: Options) => {
      if (opts.batch !== undefined) return runBatch(command, opts, answer);
      let result: Answer;
      try {
        result = answer(opts);
      } catch (error) {
        throw error instanceof CliError ? error : new CliError(messageOf(error));
      }
      printResult(Boolean(opts.json), result.json, () => result.text);
    });
}

function withStepFlags(command: Command): Command {
  return command
    .option('--mechanism <kind>', STEP_MECHANISMS.join(' | '), 'gaussian')
    .option('--sensitivity <d>', 'sensitivity under add/remove one unit (default 1)')
    .option('--sampling <kind>', 'poisson | none (none: q = 1)', 'poisson')
    .option('--q <q>', 'Poisson sampling rate per step (default 1: no sampling)')
    .option('--steps <t>', 'number of steps (default 1)');
}

function withNoiseFlags(command: Command): Command {
  return withStepFlags(command)
    .option('--event <file>', 'a privacy event as JSON (instead of the mechanism flags)')
    .option('--sigma <s>', 'Gaussian noise standard deviation')
    .option('--scale <b>', 'Laplace scale')
    .option('--eps <e>', 'ε of a pure ε-DP step');
}

export function registerAccount(program: Command): void {
  const account = program.command('account').description('privacy accounting: ε at δ, δ at ε, noise calibration, composition (PLD with certified bounds; RDP)');

  const epsilon = withNoiseFlags(account.command('epsilon').description('ε at δ of T steps of a mechanism, or of an event file')).option('--delta <d>', 'δ');
  withQuery(epsilon, (opts) => epsilonAnswer(eventFrom(opts), opts));

  const delta = withNoiseFlags(account.command('delta').description('δ at ε of T steps of a mechanism, or of an event file')).option('--epsilon <e>', 'ε');
  withQuery(delta, (opts) => deltaAnswer(eventFrom(opts), opts));

  const sigma = withStepFlags(
    account
      .command('sigma')
      .alias('calibrate')
      .description('the noise meeting (ε, δ) over T steps: Gaussian σ (std), Laplace scale, or the ε of each ε-DP step (JSON "sigma")'),
  )
    .option('--epsilon <e>', 'target ε')
    .option('--delta <d>', 'target δ')
    .option('--tolerance <r>', 'relative tolerance on the noise parameter (default 1e-3)');
  withQuery(sigma, sigmaAnswer);

  const compose = account
    .command('compose')
    .description('ε at δ (or δ at ε) of a sequence of privacy events')
    .option('--events <file>', 'a JSON array of privacy events, or {"events": [...]}')
    .option('--delta <d>', 'δ (answer ε)')
    .option('--epsilon <e>', 'ε (answer δ)');
  withQuery(compose, composeAnswer);
}
