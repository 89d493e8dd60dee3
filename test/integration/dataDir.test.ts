/**
 * Where browser mode and the CLI keep their data: `--data-dir`, else $VEIL_DATA_DIR, else
 * $XDG_DATA_HOME/veil, else ~/.local/share/veil (README, "Where data lives"). The process
 * environment is restored after every test.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultDataDir, ensureDataDir } from '../../electron/services/dataDir';
import { runCliCaptured } from './model/cliHarness';

const KEYS = ['VEIL_DATA_DIR', 'XDG_DATA_HOME'] as const;
let saved: Partial<Record<(typeof KEYS)[number], string>>;
let dir: string;
beforeEach(() => {
  saved = Object.fromEntries(KEYS.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  dir = mkdtempSync(join(tmpdir(), 'veil-data-dir-'));
});
afterEach(() => {
  for (const key of KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('defaultDataDir', () => {
  it('takes $VEIL_DATA_DIR over $XDG_DATA_HOME and the home directory', () => {
    process.env.VEIL_DATA_DIR = join(dir, 'veil-data');
    process.env.XDG_DATA_HOME = join(dir, 'xdg');
    expect(defaultDataDir()).toBe(join(dir, 'veil-data'));
    expect(defaultDataDir({ VEIL_DATA_DIR: join(dir, 'other'), XDG_DATA_HOME: join(dir, 'xdg') })).toBe(join(dir, 'other'));
  });

  it('makes a relative $VEIL_DATA_DIR absolute', () => {
    process.env.VEIL_DATA_DIR = 'relative/data';
    expect(defaultDataDir()).toBe(resolve('relative/data'));
  });

  it('falls back to $XDG_DATA_HOME/veil, then ~/.local/share/veil, when $VEIL_DATA_DIR is unset or empty', () => {
    delete process.env.VEIL_DATA_DIR;
    process.env.XDG_DATA_HOME = join(dir, 'xdg');
    expect(defaultDataDir()).toBe(join(dir, 'xdg', 'veil'));
    process.env.VEIL_DATA_DIR = '';
    expect(defaultDataDir()).toBe(join(dir, 'xdg', 'veil'));
    delete process.env.XDG_DATA_HOME;
    expect(defaultDataDir()).toBe(join(homedir(), '.local', 'share', 'veil'));
    expect(defaultDataDir({})).toBe(join(homedir(), '.local', 'share', 'veil'));
  });
});

describe('the CLI data directory', () => {
  const infoDataDir = async (...args: string[]) => {
    const run = await runCliCaptured('info', '--json', ...args);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    return (JSON.parse(run.stdout) as { dataDir: string }).dataDir;
  };

  it('is $VEIL_DATA_DIR when set (created owner-only), and --data-dir beats it', async () => {
    process.env.VEIL_DATA_DIR = join(dir, 'from-env');
    process.env.XDG_DATA_HOME = join(dir, 'xdg');
    expect(await infoDataDir()).toBe(join(dir, 'from-env'));
    expect(statSync(join(dir, 'from-env')).mode & 0o777).toBe(0o700);
    expect(await infoDataDir('--data-dir', join(dir, 'from-flag'))).toBe(join(dir, 'from-flag'));
  });

  it('is $XDG_DATA_HOME/veil when $VEIL_DATA_DIR is unset', async () => {
    delete process.env.VEIL_DATA_DIR;
    process.env.XDG_DATA_HOME = join(dir, 'xdg');
    expect(await infoDataDir()).toBe(join(dir, 'xdg', 'veil'));
  });
});

describe('ensureDataDir', () => {
  it('creates a new directory (and missing parents) owner-only', () => {
    const created = join(dir, 'new', 'data');
    expect(ensureDataDir(created)).toBe(created);
    expect(statSync(created).mode & 0o7777).toBe(0o700);
  });

  it('leaves the permissions of an existing directory alone (was: forced to 0700, even on ~)', () => {
    const existing = join(dir, 'loose');
    mkdirSync(existing);
    chmodSync(existing, 0o755);
    expect(ensureDataDir(existing)).toBe(existing);
    expect(statSync(existing).mode & 0o7777).toBe(0o755);
  });

  it.each([0o777, 0o1777])('refuses an existing directory every user may write into (mode %o), changing nothing', (bits) => {
    const open = join(dir, `open-${bits.toString(8)}`);
    mkdirSync(open);
    chmodSync(open, bits);
    expect(() => ensureDataDir(open)).toThrow(/writable by every user .*choose a private directory/);
    expect(statSync(open).mode & 0o7777).toBe(bits);
  });

  // Giving a directory to another user needs root (CI runs as root).
  it.runIf(process.getuid?.() === 0)('refuses an existing directory that belongs to another user (it could read or swap the files)', () => {
    const theirs = join(dir, 'theirs');
    mkdirSync(theirs);
    chmodSync(theirs, 0o755);
    chownSync(theirs, 65534, 65534);
    expect(() => ensureDataDir(theirs)).toThrow(/belongs to another user/);
  });

  it('refuses a path that is a file', () => {
    const file = join(dir, 'file');
    writeFileSync(file, '');
    expect(() => ensureDataDir(file)).toThrow(/not a directory|EEXIST|ENOTDIR/);
  });
});
