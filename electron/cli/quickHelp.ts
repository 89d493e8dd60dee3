/**
 * `veil --version` and `veil [command…] --help` without loading the CLI: the bundled CLI's
 * build stores every command's help text in out/cli/help.json (vite.config.ts). The texts show
 * the default data directory, so they are used only while it is still the same. Anything
 * else — or no stored text for the command named — returns false: run the full CLI.
 * Help is stored at commander's width for a pipe (80 columns).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { defaultDataDir } from '../services/dataDir';
import { APP_VERSION } from '../shared/appInfo';

export { defaultDataDir }; // for the build, which stores the default its texts show

/** A command's help exactly as `--help` prints it, text added with addHelpText included (helpInformation leaves it out). */
export function helpText(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => void (text += chunk) });
  command.outputHelp();
  return text;
}

const HELP = new Set(['--help', '-h']);

/** Command path (words) → help text, e.g. "" → the program's help, "vault import" → that command's. */
interface StoredHelp {
  dataDir: string;
  texts: Record<string, string>;
}

export function quickAnswer(argv: readonly string[], helpFile: URL = new URL('./help.json', import.meta.url)): boolean {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${APP_VERSION}\n`);
    return true;
  }
  const words = argv[0] === 'help' ? argv.slice(1) : HELP.has(argv.at(-1) ?? '') ? argv.slice(0, -1) : null;
  if (!words || words.some((word) => word.startsWith('-'))) return false;
  let stored: StoredHelp;
  try {
    stored = JSON.parse(readFileSync(helpFile, 'utf8')) as StoredHelp;
  } catch {
    return false;
  }
  const key = words.join(' ');
  if (stored.dataDir !== defaultDataDir() || !Object.hasOwn(stored.texts, key)) return false;
  process.stdout.write(stored.texts[key]);
  return true;
}
