/**
 * The `veil` command line: the same services as the app, scriptable, `--json` everywhere.
 */
import { Command, CommanderError } from 'commander';
import { APP_VERSION } from '../shared/appInfo';
import { commandGroups } from './commands/index';
import { CliError } from './output';

export function buildProgram(): Command {
  const program = new Command('veil')
    .description('Veil — differentially private in-context learning workbench')
    .version(APP_VERSION, '-V, --version')
    .exitOverride();
  for (const register of commandGroups) register(program);
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
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
