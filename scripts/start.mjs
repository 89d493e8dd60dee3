#!/usr/bin/env node
// `npm start`: the desktop app when the Electron runtime is installed; otherwise browser
// mode (the same services behind the loopback bridge), as on air-gapped or headless
// machines where the Electron binary could not be downloaded.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
  return child;
}

const electron = process.env.VEIL_BROWSER_MODE ? null : electronBinary();
if (electron) {
  const build = spawn('npm', ['run', 'build'], { stdio: 'inherit' });
  build.on('exit', (code) => (code === 0 ? run(electron, ['.']) : process.exit(code ?? 1)));
} else {
  console.log('Electron runtime not installed: starting Veil in browser mode.');
  run(process.execPath, ['bin/veil.mjs', 'serve', '--rebuild', '--open', ...process.argv.slice(2)]);
}
