/** The data directory: created owner-only; an existing one keeps its mode; one every user may write into is refused. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDataDir } from '../../../electron/services/dataDir';

const root = mkdtempSync(join(tmpdir(), 'veil-datadir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o7777;

describe('ensureDataDir', () => {
  it('creates a new directory (and missing parents) owner-only', () => {
    const dir = ensureDataDir(join(root, 'new', 'data'));
    expect(dir).toBe(join(root, 'new', 'data'));
    expect(mode(dir)).toBe(0o700);
  });

  it('leaves the permissions of an existing directory alone (was: forced to 0700)', () => {
    const dir = join(root, 'shared-read');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(ensureDataDir(dir)).toBe(dir);
    expect(mode(dir)).toBe(0o755);
  });

  it.each([0o777, 0o1777])('refuses an existing directory every user may write into (mode %o), changing nothing', (bits) => {
    const dir = join(root, `open-${bits.toString(8)}`);
    mkdirSync(dir);
    chmodSync(dir, bits);
    expect(() => ensureDataDir(dir)).toThrow(/writable by every user .*choose a private directory/);
    expect(mode(dir)).toBe(bits);
  });

  it('refuses a path that is a file', () => {
    const file = join(root, 'file');
    writeFileSync(file, '');
    expect(() => ensureDataDir(file)).toThrow();
  });
});
