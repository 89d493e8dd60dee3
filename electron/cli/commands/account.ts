/**
 * `veil account …`: privacy accounting from the command line, no data directory needed.
 *   epsilon   ε at δ of T steps of a mechanism (or of an --event file)
 *   delta     δ at ε, likewise
 *   sigma     the noise parameter meeting a target (ε, δ) (alias: calibrate)
 *   compose   ε at δ (or δ at ε) of a sequence of events read from a JSON file
 * The flags describe T steps of one mechanism (Gaussian σ, Laplace scale, or ε-DP), each on
 * a Poisson(q) sample (`--sampling none`, or no --q: q = 1). Answers are certified bounds
 * {lower, estimate, upper} from the accounting facade (`--accountant auto`: PLD, with RDP's
 * finite upper bound where PLD's is infinite, and RDP where PLD cannot take the event), with
 * the accountant behind each bound and the RDP cross-check; JSON spells +∞ "Infinity".
 * `--batch FILE` runs one case per JSON line (fields named like the flags, the command line's
 * flags as defaults) and prints one JSON line per case.
 */
import type { Command } from 'commander';
import { ZodError } from 'zod';
import { accountDelta, accountEpsilon, type AccountingResult } from '../../../core/accounting';
import type { Accountant, AccountantName, Bounds } from '../../../core/accounting/accountant';
import { calibrate, CalibrationError } from '../../../core/accounting/calibration';
import { parsePrivacyEvent, sequence, type PrivacyEvent } from '../../../core/accounting/events';
import { pldAccountant } from '../../../core/accounting/pld';
import { rdpAccountant } from '../../../core/accounting/rdp';
import { noiseDecreasing, STEP_MECHANISMS, stepsEvent, type StepMechanism, type StepsSpec } from '../../../core/accounting/steps';
import { issuePath, issuesLine } from '../../services/api';
import { jsonErrorOffset, readJsonFile, readTextFile } from '../files';
import { CliError, numberOption, printJson, printResult } from '../output';

/** Flag values by attribute name: strings from the command line; numbers or inline JSON from a batch line. */
type Options = Record<string, unknown>;
interface Answer {
  json: Record<string, unknown>;
  text: string;
}

const NOISE_FLAG: Record<StepMechanism, string> = { gaussian: 'sigma', laplace: 'scale', pure: 'eps' };

function messageOf(error: unknown): string {
  // By field path, never by value: the event may come from a user's file.
  if (error instanceof ZodError) return issuesLine(error.issues.map((i) => (i.path.length ? i : { ...i, path: ['event'] })));
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
  const sampling = opts.sampling === undefined ? undefined : choice(opts, 'sampling', ['poisson', 'none'] as const);
  const rate = number(opts, 'q');
  if (sampling === 'poisson' && rate === undefined) throw new CliError('--sampling poisson needs --q, the sampling rate per step (without sampling: --sampling none)', 2);
  const q = sampling === 'none' ? 1 : (rate ?? 1);
  if (!(q > 0 && q <= 1)) throw new CliError(`--q must be in (0, 1], got ${q}`, 2);
  const steps = number(opts, 'steps') ?? 1;
  if (!(Number.isInteger(steps) && steps >= 0)) throw new CliError(`--steps must be a whole number ≥ 0, got ${steps}`, 2);
  return { mechanism, sensitivity: positive(opts, 'sensitivity', 1), q, steps };
}

/** JSON from a file named by a flag (command line), or given inline (batch line). */
function jsonInput(opts: Options, name: string): unknown {
  const value = opts[name];
  return typeof value === 'string' ? readJsonFile(value, `--${name}`) : value;
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

/** --accountant auto (the facade: PLD, RDP's finite upper bound where PLD's is infinite, RDP where PLD cannot take the event) | pld | rdp. */
function accountantChoice(opts: Options): Accountant | 'auto' {
  const name = choice(opts, 'accountant', ['auto', 'pld', 'rdp'] as const);
  return name === 'pld' ? pldAccountant : name === 'rdp' ? rdpAccountant : 'auto';
}

/** Run an accounting computation, timing it. */
function timed<T>(run: () => T): { value: T; seconds: number } {
  const start = performance.now();
  const value = run();
  return { value, seconds: (performance.now() - start) / 1000 };
}

/** One answer: the bounds, which accountant gave each of them, and the RDP cross-check beside a PLD answer. */
interface Accounted {
  bounds: Bounds;
  accountant: AccountantName;
  boundsBy: Record<keyof Bounds, AccountantName>;
  rdp?: Bounds;
}

const all = (name: AccountantName): Accounted['boundsBy'] => ({ lower: name, estimate: name, upper: name });

/** The facade's answer, saying where RDP's upper bound stands in for PLD's infinite one (lower bound: PLD's). */
function fromFacade(result: AccountingResult): Accounted {
  const { accountant, bounds, rdp } = result;
  if (accountant === 'rdp' && rdp) {
    return { bounds, accountant, boundsBy: { lower: bounds.lower === rdp.upper ? 'rdp' : 'pld', estimate: 'rdp', upper: 'rdp' }, rdp };
  }
  return { bounds, accountant, boundsBy: all(accountant), ...(rdp && { rdp }) };
}

const fromAccountant = (accountant: Accountant, bounds: Bounds): Accounted => ({ bounds, accountant: accountant.name, boundsBy: all(accountant.name) });

/** JSON has no Infinity (JSON.stringify would print null, which reads as "unknown"): spell it out. */
const jsonNumber = (x: number): number | string => (Number.isFinite(x) ? x : String(x));
const jsonBounds = (b: Bounds) => ({ lower: jsonNumber(b.lower), estimate: jsonNumber(b.estimate), upper: jsonNumber(b.upper) });

function accountedJson(a: Accounted): Record<string, unknown> {
  return { accountant: a.accountant, boundsBy: a.boundsBy, ...(a.rdp && { rdp: jsonBounds(a.rdp) }) };
}

const fmt = (x: number): string => (Number.isFinite(x) ? x.toPrecision(6) : x === Infinity ? '∞' : String(x));
const boundsText = (b: Bounds): string => `${fmt(b.upper)} (estimate ${fmt(b.estimate)}, range [${fmt(b.lower)}, ${fmt(b.upper)}])`;

/** "(PLD, 0.012 s)", or which accountant gave which bound where they differ; then the RDP cross-check and why a bound is ∞. */
function provenance(a: Accounted, seconds: number, symbol: 'ε' | 'δ', at: string): string {
  const { lower, estimate, upper } = a.boundsBy;
  const mixed = lower !== upper || estimate !== upper;
  const who = mixed
    ? `upper bound and estimate by ${upper.toUpperCase()}, since PLD's is infinite ${at}, below its ~1e-12 rounding slack; lower bound by ${lower.toUpperCase()}`
    : upper.toUpperCase();
  const lines = [`(${who}; ${seconds.toFixed(3)} s)`];
  if (a.rdp && upper !== 'rdp') lines.push(`RDP cross-check: ${symbol} ≤ ${fmt(a.rdp.upper)}`);
  if (a.bounds.upper === Infinity) {
    lines.push(
      a.accountant === 'pld' && a.rdp === undefined
        ? `∞: PLD's upper bound is infinite ${at} (below its rounding slack, ~1e-12, or a release's own δ₀); --accountant auto falls back to RDP's finite bound`
        : `∞: no accountant gives a finite ${symbol} ${at} (an (ε, δ₀) part with δ₀ above this δ guarantees nothing there)`,
    );
  }
  return lines.join('\n');
}

function epsilonAnswer(event: PrivacyEvent, opts: Options): Answer {
  const delta = probability(opts, 'delta');
  const chosen = accountantChoice(opts);
  const { value, seconds } = timed(() => (chosen === 'auto' ? fromFacade(accountEpsilon(event, delta)) : fromAccountant(chosen, chosen.epsilon(event, delta))));
  return {
    json: { epsilon: jsonBounds(value.bounds), delta, ...accountedJson(value), seconds },
    text: `ε ≤ ${boundsText(value.bounds)} at δ = ${delta} ${provenance(value, seconds, 'ε', `at δ = ${delta}`)}`,
  };
}

function deltaAnswer(event: PrivacyEvent, opts: Options): Answer {
  const epsilon = required(opts, 'epsilon');
  if (!(epsilon >= 0)) throw new CliError(`--epsilon must be ≥ 0, got ${epsilon}`, 2);
  const chosen = accountantChoice(opts);
  const { value, seconds } = timed(() => (chosen === 'auto' ? fromFacade(accountDelta(event, epsilon)) : fromAccountant(chosen, chosen.delta(event, epsilon))));
  return {
    json: { delta: jsonBounds(value.bounds), epsilon, ...accountedJson(value), seconds },
    text: `δ ≤ ${boundsText(value.bounds)} at ε = ${epsilon} ${provenance(value, seconds, 'δ', `at ε = ${epsilon}`)}`,
  };
}

function composeAnswer(opts: Options): Answer {
  const event = eventsFrom(opts);
  if ((opts.delta === undefined) === (opts.epsilon === undefined)) throw new CliError('give either --delta (for ε) or --epsilon (for δ)', 2);
  return opts.delta !== undefined ? epsilonAnswer(event, opts) : deltaAnswer(event, opts);
}

/**
 * The smallest noise (largest ε per step) whose certified upper ε meets the target, by core
 * calibrate(): with the facade by default (as the app calibrates), else the chosen accountant.
 */
function sigmaAnswer(opts: Options): Answer {
  const target = { epsilon: positive(opts, 'epsilon'), delta: probability(opts, 'delta') };
  const spec = stepsSpec(opts);
  if (spec.steps === 0) throw new CliError('--steps must be ≥ 1 to calibrate', 2);
  const family = (p: number): PrivacyEvent => stepsEvent(spec, p);
  const chosen = accountantChoice(opts);
  const tolerance = number(opts, 'tolerance');
  const decreasing = noiseDecreasing(spec.mechanism);
  const { value, seconds } = timed(() => {
    try {
      if (chosen !== 'auto') return { calibration: calibrate({ family, target, accountant: chosen, tolerance, decreasing }), accounted: undefined };
      const calibration = calibrate({ family, target, tolerance, decreasing });
      // Which accountant bounds the answer, and the RDP cross-check: the facade again at the parameter found (same bounds).
      return { calibration, accounted: fromFacade(accountEpsilon(family(calibration.parameter), target.delta)) };
    } catch (error) {
      const hint = chosen === pldAccountant && error instanceof CalibrationError && /Infinity/.test(error.message)
        ? " (PLD's certified upper bound is infinite below its rounding slack, ~1e-12: --accountant auto falls back to RDP's finite bound)"
        : '';
      throw hint ? new CliError(`${error instanceof Error ? error.message : String(error)}${hint}`) : error;
    }
  });
  const { parameter, epsilon } = value.calibration;
  const accounted: Accounted = value.accounted ? { ...value.accounted, bounds: epsilon } : fromAccountant(chosen as Accountant, epsilon);
  return {
    json: { sigma: parameter, epsilon: jsonBounds(epsilon), delta: target.delta, ...accountedJson(accounted), seconds },
    text: `--${NOISE_FLAG[spec.mechanism]} ${fmt(parameter)} gives ε ≤ ${boundsText(epsilon)} at δ = ${target.delta} ${provenance(accounted, seconds, 'ε', `at δ = ${target.delta}`)}`,
  };
}

/** One batch line as options: known fields only; numbers become flag strings, inline JSON stays. */
function batchCase(line: string, fields: Set<string>): Options {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    const offset = jsonErrorOffset(line);
    throw new CliError(`not valid JSON${offset === null ? '' : ` (column ${offset + 1})`}`, 2); // the line itself is never quoted
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new CliError('a batch case must be a JSON object', 2);
  const opts: Options = {};
  for (const [key, value] of Object.entries(json)) {
    if (!fields.has(key)) throw new CliError(`unknown field "${issuePath([key])}" (fields: ${[...fields].join(', ')})`, 2);
    opts[key] = typeof value === 'number' ? String(value) : value;
  }
  return opts;
}

/** One JSON line per case; a failing case prints {"line", "error"} and the run exits non-zero at the end. */
function runBatch(command: Command, opts: Options, answer: (opts: Options) => Answer): void {
  const { batch, json: _json, ...defaults } = opts;
  const fields = new Set(command.options.map((o) => o.attributeName()).filter((name) => name !== 'batch' && name !== 'json'));
  const text = readTextFile(String(batch), '--batch');
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
    .option('--sampling <kind>', 'poisson (needs --q) | none (q = 1); default: poisson with --q, none without')
    .option('--q <q>', 'Poisson sampling rate per step (without it: no sampling, q = 1)')
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
