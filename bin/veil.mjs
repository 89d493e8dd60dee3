#!/usr/bin/env node
// The `veil` command: runs the TypeScript CLI through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../electron/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
