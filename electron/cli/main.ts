/**
 * The `veil` command line: the same services as the app, scriptable, `--json` everywhere.
 * Bare `veil` is an error (one line on stderr, exit 1), like every other CLI mistake.
 */
import { Command, CommanderError } from 'commander';
import { APP_VERSION } from '../shared/appInfo';
import { commandGroups } from './commands/index';
import { CliError } from './output';

/** A usage error from commander as one line like every other: "veil: unknown command 'impor' (did you mean import?)". */
export function oneLine(message: string): string {
  return `veil: ${message.replace(/^error: /, '').replace(/\s*\n\s*\(Did you mean (.*)\?\)/, ' (did you mean $1?)').trim()}\n`;
}

export function buildProgram(): Command {
  const program = new Command('veil')
    .description('Veil — differentially private in-context learning workbench')
    .version(APP_VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ outputError: (message, write) => write(oneLine(message)) }); // before the subcommands: they inherit it
  for (const register of commandGroups) register(program);
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  if (argv.length === 0) {
    process.stderr.write('veil: no command; see veil --help\n');
    return 1;
  }
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`veil: ${message}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}
