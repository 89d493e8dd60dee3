/**
 * CLI output conventions: `--json` prints exactly one JSON document on stdout; otherwise
 * a human summary. Errors: one clear line on stderr and a non-zero exit code (CliError).
 */
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
