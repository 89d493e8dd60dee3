/** Locate the built renderer; build it with vite when missing (source checkouts). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root: the nearest directory above this module with a package.json (from the sources and from out/main or out/cli alike). */
function appRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) if (existsSync(join(dir, 'package.json'))) return dir;
  return fileURLToPath(new URL('../..', import.meta.url));
}

const root = appRoot();
export const rendererDir = join(root, 'out', 'renderer');

export async function ensureRendererBuilt(force = false): Promise<string> {
  if (force || !existsSync(`${rendererDir}/index.html`)) {
    const { build } = await import('vite');
    const { rendererConfig } = await import('../../renderer/vite.config');
    // Paths spelled out: in the bundled CLI the config module no longer sits in renderer/.
    const input = join(root, 'renderer', 'index.html');
    await build({ ...rendererConfig, root: join(root, 'renderer'), build: { ...rendererConfig.build, outDir: rendererDir, rollupOptions: { input } }, logLevel: 'warn', configFile: false });
  }
  return rendererDir;
}
