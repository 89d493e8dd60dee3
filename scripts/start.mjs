#!/usr/bin/env node
// `npm start`: the desktop app when the Electron runtime is installed and a display is
// available; otherwise browser mode (the same services behind the loopback bridge), as on
// air-gapped or headless machines. VEIL_BROWSER_MODE=1 forces browser mode.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The Electron executable if its binary is installed (never triggers Electron's lazy download). */
function electronBinary() {
  try {
    const dir = dirname(require.resolve('electron/package.json'));
    const binary = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8'));
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Why the desktop app cannot start here, or null when it can. */
function browserModeReason(electron) {
  if (process.env.VEIL_BROWSER_MODE) return 'VEIL_BROWSER_MODE is set';
  if (!electron) return 'Electron runtime not installed';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)';
  }
  return null;
}

/** A child's exit status as ours; killed by a signal → 128 + its number, as shells report it. */
function exitCodeOf(code, signal) {
  return code ?? 128 + (constants.signals[signal] ?? 0);
}

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(exitCodeOf(code, signal)));
}

const electron = electronBinary();
const reason = browserModeReason(electron);
if (reason) {
  console.log(`${reason}: starting Veil in browser mode.`);
  run(process.execPath, ['bin/veil.mjs', 'serve', '--rebuild', '--open', ...process.argv.slice(2)]);
} else {
  const build = spawn('npm', ['run', 'build'], { stdio: 'inherit' });
  build.on('exit', (code, signal) => (code === 0 ? run(electron, ['.']) : process.exit(exitCodeOf(code, signal))));
}
