/**
 * The CLI's file rules (electron/cli/files.ts): a JSON input that cannot be read or parsed
 * is one line naming the flag, the file and the place — never a character of the file —
 * and an --out file is checked before any work: not a directory, link or special file, in
 * a writable folder that exists, replaced only with --overwrite (the message names it).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonErrorOffset, outputFile, parseJsonText, readJsonFile, writeOutput } from '../../../electron/cli/files';
import { CliError } from '../../../electron/cli/output';

const dir = mkdtempSync(join(tmpdir(), 'veil-cli-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** The CliError a call throws (its message and exit code). */
function refusal(run: () => unknown): { message: string; exitCode: number } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return { message: (error as CliError).message, exitCode: (error as CliError).exitCode };
  }
  throw new Error('expected a refusal');
}

const PRIVATE = 'Patient Jane Doe HIV positive\nsecond line: 555-0100';

describe('readJsonFile', () => {
  it('reads JSON (a byte-order mark from an editor included)', () => {
    expect(readJsonFile(file('ok.json', '{"kind":"pure","epsilon":1}'), '--event')).toEqual({ kind: 'pure', epsilon: 1 });
    expect(readJsonFile(file('bom.json', '\uFEFF[1, 2]'), '--events')).toEqual([1, 2]);
  });

  it('names the flag, the file and the line and column of a syntax error, quoting nothing of the file', () => {
    const path = file('private.txt', PRIVATE);
    const { message, exitCode } = refusal(() => readJsonFile(path, '--event'));
    expect(message).toBe(`--event ${path} is not valid JSON (line 1, column 1)`);
    expect(exitCode).toBe(2);
    for (const word of ['Patient', 'Jane', 'HIV', '555']) expect(message).not.toContain(word);
  });

  it.each([
    ['{"a": 1,\n "b": Jane}', 'line 2, column 7'],
    ['{"a": 1', 'line 1, column 8'],
    ['[1, 2,]', 'line 1, column 7'],
    ['{"a": 1} trailing', 'line 1, column 10'],
    ['{"a": "tab\there"}', 'line 1, column 11'],
    ['{"a": "\\x"}', 'line 1, column 9'],
    ['{"a": "\\u12G4"}', 'line 1, column 12'],
    ['{\'a\': 1}', 'line 1, column 2'],
    ['[01]', 'line 1, column 3'],
    ['\n\n  nul', 'line 3, column 3'],
  ])('places the error in %j at %s', (text, place) => {
    expect(refusal(() => parseJsonText(text, 'F')).message).toBe(`F is not valid JSON (${place})`);
  });

  it('agrees with JSON.parse on what is JSON', () => {
    for (const text of ['0', '-1.5e+3', '"\\u00e9\\n"', '{"a":[true,false,null,{}],"b":[]}', ' [ 1 , { "x" : "y" } ] ']) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonErrorOffset(text)).toBeNull();
    }
  });

  it('says an empty file is empty, a missing file is missing, a directory is a directory', () => {
    expect(refusal(() => readJsonFile(file('empty.json', ' \n'), '--events')).message).toBe(`--events ${join(dir, 'empty.json')} is empty (expected JSON)`);
    expect(refusal(() => readJsonFile(join(dir, 'none.json'), '--event')).message).toBe(`cannot read the --event file ${join(dir, 'none.json')}: no such file`);
    expect(refusal(() => readJsonFile(dir, '--event')).message).toBe(`cannot read the --event file ${dir}: it is a directory`);
  });
});

describe('outputFile / writeOutput', () => {
  it('writes a new file and refuses to replace it without --overwrite, naming the flag', () => {
    const path = join(dir, 'out.json');
    writeOutput(outputFile(path), 'first');
    expect(readFileSync(path, 'utf8')).toBe('first');
    const { message, exitCode } = refusal(() => outputFile(path));
    expect(message).toBe(`--out ${path} exists; add --overwrite to replace it`);
    expect(exitCode).toBe(2);
    writeOutput(outputFile(path, { overwrite: true }), 'second');
    expect(readFileSync(path, 'utf8')).toBe('second');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]); // no temporary file left
  });

  it('keeps a file that appeared between the check and the write', () => {
    const path = join(dir, 'race.json');
    const checked = outputFile(path);
    writeFileSync(path, 'someone else');
    expect(refusal(() => writeOutput(checked, 'mine')).message).toMatch(/race\.json exists now; add --overwrite to replace it$/);
    expect(readFileSync(path, 'utf8')).toBe('someone else');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes owner-only when asked', () => {
    const path = join(dir, 'ledger.csv');
    writeOutput(outputFile(path), 'x', 0o600);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a directory, a link, a missing folder and an unwritable folder in one line each', () => {
    expect(refusal(() => outputFile(dir)).message).toBe(`--out ${dir} is a directory; name a file`);
    expect(refusal(() => outputFile(dir, { overwrite: true })).message).toBe(`--out ${dir} is a directory; name a file`);
    const link = join(dir, 'link.json');
    symlinkSync(join(dir, 'out.json'), link);
    expect(refusal(() => outputFile(link, { overwrite: true })).message).toMatch(/is a symbolic link/);
    expect(refusal(() => outputFile(join(dir, 'nope', 'x.json'))).message).toBe(`--out ${join(dir, 'nope', 'x.json')}: the folder ${join(dir, 'nope')} does not exist`);
    expect(refusal(() => outputFile(join(dir, 'out.json', 'x.json'))).message).toMatch(/the folder .*out\.json does not exist$/);
    expect(refusal(() => outputFile('/dev/null', { overwrite: true })).message).toBe('--out /dev/null exists and is not a regular file');
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      mkdirSync(locked, { mode: 0o500 });
      chmodSync(locked, 0o500);
      expect(refusal(() => outputFile(join(locked, 'x.json'))).message).toBe(`--out ${join(locked, 'x.json')}: ${locked} is not writable`);
    }
  });

  it('names another flag where a command has its own', () => {
    const path = join(dir, 'out.json');
    expect(refusal(() => outputFile(path, { flag: 'FILE', overwriteFlag: '--force' })).message).toBe(`FILE ${path} exists; add --force to replace it`);
  });
});
