/** The `veil` CLI shell: help, version (package.json's), JSON output, errors and a bare `veil` (one line on stderr, non-zero exit). */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'veil-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const veil = (...args: string[]) => spawnSync(process.execPath, ['bin/veil.mjs', ...args], { encoding: 'utf8' });

describe('veil CLI', () => {
  it('lists its commands in --help and prints --version', () => {
    const help = veil('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/serve/);
    expect(help.stdout).toMatch(/info/);
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(execFileSync(process.execPath, ['bin/veil.mjs', '--version'], { encoding: 'utf8' }).trim()).toBe(version);
  });

  it('refuses a bare `veil` with one line pointing at --help', () => {
    const bare = veil();
    expect(bare.status).toBe(1);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toBe('veil: no command; see veil --help\n');
  });

  it('prints structured JSON with --json', () => {
    const info = veil('info', '--data-dir', dataDir, '--json');
    expect(info.status).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ name: 'Veil', dataDir, mode: 'cli' });
  });

  it('fails with a clear line and a non-zero exit code', () => {
    const bad = veil('no-such-command');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toBe("veil: unknown command 'no-such-command'\n");
    // Commander's own usage errors are one line too, its suggestion included.
    expect(veil('vault', 'impor').stderr).toBe("veil: unknown command 'impor' (did you mean import?)\n");
    expect(veil('vault', 'list', '--bogus').stderr).toBe("veil: unknown option '--bogus'\n");
    const badPort = veil('serve', '--port', 'eighty', '--data-dir', dataDir);
    expect(badPort.status).toBe(2);
    expect(badPort.stderr.trim()).toBe('veil: --port must be a number, got "eighty"');
  });
});
