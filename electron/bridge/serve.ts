/**
 * Browser mode end to end: data directory, services, the loopback bridge, the launch URL
 * (with its token) printed, and opened in a browser when one is available through a private
 * launch page (launchPage.ts: the token stays out of the browser's command line); clean
 * shutdown on SIGINT/SIGTERM.
 */
import { spawn } from 'node:child_process';
import { ServiceContext } from '../services/context';
import { ensureDataDir } from '../services/dataDir';
import { writeLaunchPage, type LaunchPage } from './launchPage';
import { ensureRendererBuilt } from './rendererBuild';
import { startBridge, type Bridge } from './server';

export interface ServeOptions {
  dataDir: string;
  port?: number;
  open?: boolean;
  rebuild?: boolean;
  log?: (line: string) => void;
}

/** Opens the launch page in the default browser; returns the page to remove at shutdown, or null without a display. */
function openBrowser(launchUrl: string): LaunchPage | null {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return null;
  const page = writeLaunchPage(launchUrl);
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [page.url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
  return page;
}

export async function serveBrowserMode(options: ServeOptions): Promise<{ bridge: Bridge; stop: () => Promise<void> }> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const rendererDir = await ensureRendererBuilt(options.rebuild);
  const ctx = new ServiceContext(ensureDataDir(options.dataDir), 'browser');
  const bridge = await startBridge({ ctx, rendererDir, port: options.port });
  let stopping: Promise<void> | null = null;
  let page: LaunchPage | null = null;
  const stop = () => (stopping ??= bridge.close().then(() => ctx.close()).finally(() => page?.remove()));
  // `on`, not `once`: Ctrl+C reaches this process both from the terminal and from a parent
  // that forwards it (npm start); a second signal must not kill a shutdown in progress.
  const onSignal = () => void stop().then(() => process.exit(0));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  log(`Veil is running in browser mode (data: ${ctx.dataDir}).`);
  log(`Open: ${bridge.launchUrl}`);
  log('The address carries this launch’s secret token; press Ctrl+C to stop.');
  if (options.open) page = openBrowser(bridge.launchUrl);
  return { bridge, stop };
}
