/** `veil info`: version, data directory, backend, platform (the app.info method). */
import type { Command } from 'commander';
import { callMethod } from '../../services/api';
import { ServiceContext } from '../../services/context';
import { defaultDataDir, ensureDataDir } from '../../services/dataDir';
import { printResult } from '../output';

export function registerInfo(program: Command): void {
  program
    .command('info')
    .description('show version, data directory and active model backend')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: { dataDir: string; json?: boolean }) => {
      const ctx = new ServiceContext(ensureDataDir(opts.dataDir), 'cli');
      try {
        const info = await callMethod(ctx, 'app.info', {});
        printResult(opts.json, info, () =>
          [`${info.name} ${info.version}`, `data directory: ${info.dataDir}`, `model backend: ${info.backend}`, `platform: ${info.platform}`].join('\n'),
        );
      } finally {
        await ctx.close();
      }
    });
}
