/** Locate the built renderer; build it with vite when missing (source checkouts). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const rendererDir = fileURLToPath(new URL('../../out/renderer', import.meta.url));

export async function ensureRendererBuilt(force = false): Promise<string> {
  if (force || !existsSync(`${rendererDir}/index.html`)) {
    const { build } = await import('vite');
    const { rendererConfig } = await import('../../renderer/vite.config');
    await build({ ...rendererConfig, logLevel: 'warn', configFile: false });
  }
  return rendererDir;
}
