/** `veil doctor [--data-dir DIR] [--json]`: end-to-end installation checks; exit 1 when any fails. */
import type { Command } from 'commander';
import { defaultDataDir, ensureDataDir } from '../../services/dataDir';
import { runDoctor } from '../../services/model/doctor';
import { CliError, printResult } from '../output';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description("check the installation end to end: the data directory's SQLite database, CSPRNG, llama.cpp with a generated tiny GGUF, reference learner")
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: { dataDir: string; json?: boolean }) => {
      const report = await runDoctor(ensureDataDir(opts.dataDir));
      printResult(opts.json, report, () =>
        report.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(18)} ${c.detail} (${c.seconds.toFixed(2)} s)`).join('\n'),
      );
      if (!report.ok) throw new CliError(`${report.checks.filter((c) => !c.ok).length} check(s) failed`, 1);
    });
}
