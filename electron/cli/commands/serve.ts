/** `veil serve`: the app in browser mode on 127.0.0.1; `--json` prints {url, port, launchUrl} once listening. */
import type { Command } from 'commander';
import { serveBrowserMode } from '../../bridge/serve';
import { defaultDataDir } from '../../services/dataDir';
import { numberOption, printJson } from '../output';

interface ServeFlags {
  port?: string;
  dataDir: string;
  open?: boolean;
  rebuild?: boolean;
  json?: boolean;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the app on 127.0.0.1 for a browser (browser mode)')
    .option('--port <n>', 'port to listen on (default: a free port)')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--open', 'open the system browser')
    .option('--rebuild', 'rebuild the renderer first')
    .option('--json', 'print {url, port, launchUrl} as one JSON line instead of the human summary')
    .action(async (opts: ServeFlags) => {
      const port = numberOption('--port', opts.port);
      const log = opts.json ? () => undefined : undefined;
      const { bridge } = await serveBrowserMode({ dataDir: opts.dataDir, port, open: opts.open, rebuild: opts.rebuild, log });
      if (opts.json) printJson({ url: bridge.url, port: bridge.port, launchUrl: bridge.launchUrl });
      await new Promise(() => undefined); // serve until a signal stops the process
    });
}
