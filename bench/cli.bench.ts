/**
 * CLI start-up (issue 18): `veil --version`, `veil --help` and `veil doctor` through
 * bin/veil.mjs with the bundle (built first, as `npm run build:cli` does), `npx veil
 * --version`, and the TypeScript sources through tsx for comparison — beside `node -e 0`
 * measured in the same run (the reference: what any Node program pays to start).
 * Medians of 7 (doctor: 3) runs, each a fresh process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { median } from './stats';
import { tableRow } from './table';

function startSeconds(repeats: number, command: string, args: string[], env: NodeJS.ProcessEnv = {}, okCodes = [0]): number {
  const runs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    const run = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env } });
    runs.push((performance.now() - start) / 1000);
    if (!okCodes.includes(run.status ?? -1)) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  }
  return median(runs);
}

export async function run(): Promise<object> {
  await build({ configFile: 'electron/cli/vite.config.ts' });
  const dataDir = mkdtempSync(join(tmpdir(), 'veil-bench-cli-'));
  try {
    const node = { what: 'node -e 0', seconds: startSeconds(7, process.execPath, ['-e', '0']) };
    const veil = (repeats: number, ...args: string[]) => startSeconds(repeats, process.execPath, ['bin/veil.mjs', ...args]);
    const version = veil(7, '--version');
    const help = veil(7, '--help');
    const doctor = startSeconds(3, process.execPath, ['bin/veil.mjs', 'doctor', '--data-dir', dataDir], {}, [0, 1]); // 1: a check failed (no model here)
    const accountQuery = veil(7, 'account', 'epsilon', '--help');
    const npxVersion = startSeconds(5, 'npx', ['veil', '--version']);
    const fromSource = startSeconds(3, process.execPath, ['bin/veil.mjs', '--version'], { VEIL_CLI_FROM_SOURCE: '1' });
    return {
      table: [
        tableRow('veil --version (bundle)', version, 0.5, node),
        tableRow('veil --help (bundle)', help, 0.5, node),
        tableRow('npx veil --version', npxVersion, null, node),
        tableRow('veil doctor (bundle)', doctor, 5, node),
        tableRow('veil --version from the sources through tsx (before)', fromSource, null, node),
      ],
      accountEpsilonHelpSeconds: accountQuery,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
