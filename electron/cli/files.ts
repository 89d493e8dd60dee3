/**
 * Files the CLI reads and writes, under one set of rules for every command.
 *
 * Reading JSON (`readJsonFile`): a file that cannot be read or is not JSON is one line
 * naming the flag, the file and where the syntax breaks ("line 3, column 7") — never a
 * word of the file: a user's file may hold private text, and JavaScript's own JSON errors
 * quote it ("Unexpected token 'P', "Patient Ja"... is not valid JSON").
 *
 * Writing (`outputFile`, then `writeOutput`): checked before any work is done (nothing is
 * reserved for a file that cannot be written), an --out file
 *   - must not be a directory, a symbolic link or a special file,
 *   - must lie in a folder that exists and is writable,
 *   - is replaced only with --overwrite (the message names the flag);
 * it is written to a temporary file beside it and moved into place, so a failure leaves
 * no half-written file, and without --overwrite a file that appeared meanwhile is kept.
 */
import { accessSync, constants, linkSync, lstatSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { CliError } from './output';

const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** "--event FILE" or, for a positional argument, "FILE". */
const named = (flag: string | undefined, file: string) => (flag ? `${flag} ${file}` : file);

/** A file's text, or one line saying why it cannot be read (exit 2). */
export function readTextFile(file: string, flag?: string): string {
  try {
    return readFileSync(resolve(file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new CliError(`cannot read ${flag ? `the ${flag} file ${file}` : file}: ${READ_ERRORS[code] ?? (code || 'unreadable')}`, 2);
  }
}

/**
 * Where JSON text stops being JSON: the offset of the first character that does not fit
 * the grammar (RFC 8259), `text.length` for text that ends too early, null when it is JSON
 * (or nests too deeply to scan). Used only to place an error, never to parse.
 */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        if (i >= text.length) fail();
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) {
              i += k;
              fail();
            }
          }
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i])) i++;
        else fail();
      } else i++;
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === '{') {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === close) {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') return string();
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    fail();
  };
  try {
    value();
    space();
    return i < text.length ? i : null;
  } catch (offset) {
    if (typeof offset === 'number') return offset;
    return null; // nested too deeply for this scanner (RangeError)
  }
}

/** "line 3, column 7" (1-based) of an offset in a text. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - (before.lastIndexOf('\n') + 1) + 1}`;
}

/** Parse JSON text; a syntax error says where it is ("(line 1, column 1)"), never what is there. */
export function parseJsonText(text: string, what: string): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text; // a byte-order mark from an editor
  if (body.trim() === '') throw new CliError(`${what} is empty (expected JSON)`, 2);
  try {
    return JSON.parse(body);
  } catch {
    const offset = jsonErrorOffset(body);
    throw new CliError(`${what} is not valid JSON${offset === null ? '' : ` (${lineColumn(body, offset)})`}`, 2);
  }
}

/** The JSON in a file named by a flag (or a positional argument: no flag); errors as above. */
export function readJsonFile(file: string, flag?: string): unknown {
  return parseJsonText(readTextFile(file, flag), named(flag, file));
}

/** A file's status; undefined where there is none (missing, or a path through a file). */
function statOrUndefined(stat: () => Stats): Stats | undefined {
  try {
    return stat();
  } catch {
    return undefined;
  }
}

/** Where --out writes, checked; `overwrite` says whether an existing file may be replaced. */
export interface OutputFile {
  path: string;
  flag: string;
  overwrite: boolean;
  overwriteFlag: string;
}

/**
 * Check an output file before any work (see the rules above) and return it for
 * `writeOutput`. `overwriteFlag` is the flag that allows replacing a file (--overwrite).
 */
export function outputFile(file: string, options: { flag?: string; overwrite?: boolean; overwriteFlag?: string } = {}): OutputFile {
  const flag = options.flag ?? '--out';
  const overwriteFlag = options.overwriteFlag ?? '--overwrite';
  const path = resolve(file);
  const existing = statOrUndefined(() => lstatSync(path));
  if (existing?.isDirectory()) throw new CliError(`${flag} ${file} is a directory; name a file`, 2);
  if (existing?.isSymbolicLink()) throw new CliError(`${flag} ${file} is a symbolic link; name the file it points to or another name`, 2);
  if (existing && !existing.isFile()) throw new CliError(`${flag} ${file} exists and is not a regular file`, 2);
  if (existing && !options.overwrite) throw new CliError(`${flag} ${file} exists; add ${overwriteFlag} to replace it`, 2);
  const folder = dirname(path);
  if (!statOrUndefined(() => statSync(folder))?.isDirectory()) throw new CliError(`${flag} ${file}: the folder ${folder} does not exist`, 2);
  try {
    accessSync(folder, constants.W_OK);
    if (existing) accessSync(path, constants.W_OK);
  } catch {
    throw new CliError(`${flag} ${file}: ${existing ? path : folder} is not writable`, 2);
  }
  return { path, flag, overwrite: options.overwrite ?? false, overwriteFlag };
}

/** Write a checked output file: to a temporary file beside it, then moved into place. */
export function writeOutput(out: OutputFile, content: string | Uint8Array, mode = 0o644): void {
  const temporary = join(dirname(out.path), `.${basename(out.path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, content, { mode, flag: 'wx' });
    if (out.overwrite) renameSync(temporary, out.path);
    else {
      try {
        linkSync(temporary, out.path); // fails if the file appeared since outputFile() checked
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw new CliError(`${out.flag} ${out.path} exists now; add ${out.overwriteFlag} to replace it`, 1);
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
        renameSync(temporary, out.path); // a file system without hard links
      }
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`could not write ${out.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 1);
  } finally {
    rmSync(temporary, { force: true });
  }
}
