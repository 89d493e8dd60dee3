#!/usr/bin/env node
// The `veil` command. Runs the bundled CLI (out/cli, built by `npm run build:cli`) while it is
// newer than every source it was built from (out/cli/inputs.json); otherwise — a fresh
// checkout, or sources edited since — runs the TypeScript sources through tsx (slower start).
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);

function bundleIsFresh() {
  try {
    const { startedMs, files } = JSON.parse(readFileSync(new URL('out/cli/inputs.json', root), 'utf8'));
    return files.length > 0 && files.every((file) => statSync(new URL(file, root)).mtimeMs <= startedMs);
  } catch {
    return false;
  }
}

const argv = process.argv.slice(2);
let cli;
if (process.env.VEIL_CLI_FROM_SOURCE !== '1' && bundleIsFresh()) {
  // --version and --help from stored text, without loading the CLI (electron/cli/quickHelp.ts).
  if ((await import('../out/cli/quickHelp.js')).quickAnswer(argv)) process.exit(0);
  cli = await import('../out/cli/veil.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../electron/cli/main.ts');
}
process.exitCode = await cli.runCli(argv);
