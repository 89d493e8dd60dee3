/** `veil serve`: the app in browser mode on 127.0.0.1. */
import type { Command } from 'commander';
import { serveBrowserMode } from '../../bridge/serve';
import { defaultDataDir } from '../../services/dataDir';
import { numberOption } from '../output';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the app on 127.0.0.1 for a browser (browser mode)')
    .option('--port <n>', 'port to listen on (default: a free port)')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--open', 'open the system browser')
    .option('--rebuild', 'rebuild the renderer first')
    .action(async (opts: { port?: string; dataDir: string; open?: boolean; rebuild?: boolean }) => {
      await serveBrowserMode({ dataDir: opts.dataDir, port: numberOption('--port', opts.port), open: opts.open, rebuild: opts.rebuild });
      await new Promise(() => undefined); // serve until a signal stops the process
    });
}
