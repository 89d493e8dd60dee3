/** Build the renderer once per test run so end-to-end tests exercise the current source. */
import { ensureRendererBuilt } from '../electron/bridge/rendererBuild';

export default async function setup(): Promise<void> {
  await ensureRendererBuilt(true);
}
