/**
 * The `veil` command line: the same services as the app, scriptable, `--json` everywhere.
 * Bare `veil` is an error (one line on stderr, exit 1), like every other CLI mistake.
 */
import { Command, CommanderError } from 'commander';
import { BadRequestError } from '../services/api';
import { APP_VERSION } from '../shared/appInfo';
import { commandGroups } from './commands/index';
import { badRequestLine } from './issues';
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
  let command: Command | undefined; // the subcommand that ran: its flags name the fields of a refused request
  program.hook('preAction', (_program, action) => {
    command = action;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode;
    }
    const message = error instanceof BadRequestError ? badRequestLine(error, command) : error instanceof Error ? error.message : String(error);
    // One line, whatever the error: a multi-line message is joined with "; ".
    process.stderr.write(`veil: ${message.split('\n').map((line) => line.trim()).filter(Boolean).join('; ')}\n`);
    return error instanceof CliError ? error.exitCode : error instanceof BadRequestError ? 2 : 1;
  }
}
