/** `veil doctor [--json]`: end-to-end installation checks (SQLite, CSPRNG, llama.cpp, reference learner). */
import type { Command } from 'commander';
import { runDoctor } from '../../services/model/doctor';
import { CliError, printResult } from '../output';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check the installation end to end: SQLite, CSPRNG, llama.cpp with a generated tiny GGUF, reference learner')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const report = await runDoctor();
      printResult(opts.json, report, () =>
        report.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(18)} ${c.detail} (${c.seconds.toFixed(2)} s)`).join('\n'),
      );
      if (!report.ok) throw new CliError(`${report.checks.filter((c) => !c.ok).length} check(s) failed`, 1);
    });
}
