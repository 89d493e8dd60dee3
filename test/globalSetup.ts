/**
 * Build the renderer and the bundled CLI once per test run, so end-to-end tests exercise the
 * current source and tests that start `bin/veil.mjs` run the bundle (no TypeScript compile per
 * process).
 */
import { build } from 'vite';
import { ensureRendererBuilt } from '../electron/bridge/rendererBuild';

export default async function setup(): Promise<void> {
  await ensureRendererBuilt(true);
  await build({ configFile: 'electron/cli/vite.config.ts' });
}
