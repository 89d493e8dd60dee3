/**
 * The bundled CLI answers --version and --help from stored text (electron/cli/quickHelp.ts):
 * the stored text must be exactly what the full CLI prints, for every command, and is used only
 * while the default data directory it shows is still the default. The test run's global setup
 * builds the bundle.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../../electron/cli/main';
import { helpText, quickAnswer } from '../../../electron/cli/quickHelp';
import { APP_VERSION } from '../../../electron/shared/appInfo';

const helpFile = new URL('../../../out/cli/help.json', import.meta.url);

function captured(argv: string[]): { answered: boolean; out: string } {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  try {
    return { answered: quickAnswer(argv, helpFile), out };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.unstubAllEnvs());

describe('quick --help and --version', () => {
  it('stores every command and prints exactly the full CLI help', () => {
    const expected: Record<string, string> = {};
    const visit = (command: Command, path: string[]): void => {
      expected[path.join(' ')] = helpText(command);
      for (const sub of command.commands) visit(sub, [...path, sub.name()]);
    };
    visit(buildProgram(), []);
    expect(Object.keys((JSON.parse(readFileSync(helpFile, 'utf8')) as { texts: object }).texts).sort()).toEqual(Object.keys(expected).sort());
    for (const [path, text] of Object.entries(expected)) {
      const words = path ? path.split(' ') : [];
      expect(captured([...words, '--help'])).toEqual({ answered: true, out: text });
    }
    expect(captured(['help', 'vault', 'import'])).toEqual({ answered: true, out: expected['vault import'] });
  });

  it('prints the version, and leaves everything else to the full CLI', () => {
    expect(captured(['--version'])).toEqual({ answered: true, out: `${APP_VERSION}\n` });
    expect(captured(['-V'])).toEqual({ answered: true, out: `${APP_VERSION}\n` });
    for (const argv of [[], ['vault'], ['nosuch', '--help'], ['vault', '--json', '--help'], ['--version', 'x'], ['info']]) expect(captured(argv).answered).toBe(false);
    expect(captured(['--help']).answered).toBe(true);
    vi.stubEnv('VEIL_DATA_DIR', '/tmp/another-default-data-dir'); // the stored texts show another default
    expect(captured(['--help']).answered).toBe(false);
    expect(quickAnswer(['--help'], new URL('file:///nonexistent/help.json'))).toBe(false);
  });

  it('bin/veil.mjs prints the same help from the bundle as from the sources', () => {
    const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['bin/veil.mjs', 'vault', 'import', '--help'], { encoding: 'utf8', env: { ...process.env, ...env } });
    const bundled = run({});
    const source = run({ VEIL_CLI_FROM_SOURCE: '1' });
    expect(bundled.status).toBe(0);
    expect(bundled.stdout).toBe(source.stdout);
    expect(bundled.stdout).toContain('Usage: veil vault import');
  }, 120_000);
});
