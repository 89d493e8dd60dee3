/**
 * CLI output conventions: `--json` prints exactly one JSON document on stdout; otherwise
 * a human summary. Errors: one clear line on stderr and a non-zero exit code (CliError).
 */
import type { SynthesisMethod } from '../shared/api/synthesis';

export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Print `value` as JSON when `json` is set, else the human-readable text. */
export function printResult(json: boolean | undefined, value: unknown, human: () => string): void {
  if (json) printJson(value);
  else process.stdout.write(`${human()}\n`);
}

/** Parse a finite number option, naming the flag in the error. */
export function numberOption(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new CliError(`${flag} must be a number, got "${raw}"`, 2);
  return value;
}

/** A flag value looked up in a table of accepted spellings (case-insensitive), naming the flag and the spellings when it is not one. */
export function tableOption<T>(flag: string, table: Record<string, T>, raw: string): T {
  const value = Object.hasOwn(table, raw.toLowerCase()) ? table[raw.toLowerCase()] : undefined;
  if (value === undefined) throw new CliError(`${flag} must be one of ${Object.keys(table).join(', ')}; got "${raw}"`, 2);
  return value;
}

/** --method of `veil synth` and `veil plan`: the paper's short names and the mechanisms' own. */
/** `--sampling`: when a synthesis job draws its teachers. */
export const SAMPLING_MODES = { 'per-token': 'per-token', 'per-demonstration': 'per-demonstration' } as const;

export const SYNTH_METHODS = {
  tang: 'dp-few-shot-gaussian',
  'tang-exponential': 'dp-few-shot-exponential',
  adadpsyn: 'adadpsyn',
  'dp-few-shot-gaussian': 'dp-few-shot-gaussian',
  'dp-few-shot-exponential': 'dp-few-shot-exponential',
} as const satisfies Record<string, SynthesisMethod>;
