/**
 * A request the services refused as invalid (BadRequestError), restated for the command
 * line: one line, each problem named by the flag that set it where there is one
 * (workload.topK → --top-k) with the values it may take, "; "-joined:
 *   veil: --top-k must be a whole number from 2 to 1000, got 0
 * A problem no flag maps to keeps its field path, without the internal method name.
 */
import type { Command } from 'commander';
import type { z } from 'zod';
import { issueText, type BadRequestError } from '../services/api';
import { contract } from '../shared/contract';

type Issue = z.core.$ZodIssue;
type AnySchema = z.core.$ZodType;

/** Fields whose flag is not their own name, by method-input path. */
const FLAG_OF_PATH: Record<string, string> = {
  'mapping.split': '--split-column',
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The schema at a path of a method's input, through objects, wrappers, unions and arrays (undefined where it cannot follow). */
function schemaAt(schema: AnySchema | undefined, path: readonly PropertyKey[]): AnySchema | undefined {
  let current = schema;
  for (const key of path) {
    current = unwrap(current);
    const def = current?._zod.def as { type?: string; shape?: Record<string, AnySchema>; options?: AnySchema[]; element?: AnySchema } | undefined;
    if (!def) return undefined;
    if (def.type === 'object' && typeof key === 'string') current = def.shape?.[key];
    else if (def.type === 'union' && typeof key === 'string') {
      current = def.options?.map((o) => unwrap(o)).map((o) => (o?._zod.def as { shape?: Record<string, AnySchema> } | undefined)?.shape?.[key]).find(Boolean);
    } else if (def.type === 'array' && typeof key === 'number') current = def.element;
    else return undefined;
  }
  return unwrap(current);
}

/** Through optional, nullable, default, lazy and pipe wrappers to the schema that checks. */
function unwrap(schema: AnySchema | undefined): AnySchema | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth++) {
    const def = current._zod.def as { type: string; innerType?: AnySchema; getter?: () => AnySchema; in?: AnySchema };
    if (def.innerType) current = def.innerType;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
  return current;
}

/** "a whole number from 2 to 1000", "a number > 0 and < 1": the values a number field takes (undefined: not a number field). */
export function numberRange(schema: AnySchema | undefined): string | undefined {
  if (!schema || (schema._zod.def as { type: string }).type !== 'number') return undefined;
  let integer = false;
  let low: { value: number; inclusive: boolean } | undefined;
  let high: { value: number; inclusive: boolean } | undefined;
  for (const check of (schema._zod.def as { checks?: { _zod: { def: { check: string; value?: number; inclusive?: boolean; format?: string } } }[] }).checks ?? []) {
    const def = check._zod.def;
    if (def.check === 'number_format' && /int/.test(def.format ?? '')) integer = true;
    else if (def.check === 'greater_than' && def.value !== undefined) low = { value: def.value, inclusive: def.inclusive ?? false };
    else if (def.check === 'less_than' && def.value !== undefined) high = { value: def.value, inclusive: def.inclusive ?? false };
  }
  const kind = integer ? 'a whole number' : 'a number';
  // Safe-integer formats come with their own ±2^53 bounds: not worth stating.
  if (high && Math.abs(high.value) >= Number.MAX_SAFE_INTEGER) high = undefined;
  if (low && Math.abs(low.value) >= Number.MAX_SAFE_INTEGER) low = undefined;
  if (low?.inclusive && high?.inclusive) return `${kind} from ${low.value} to ${high.value}`;
  const parts = [low && `${low.inclusive ? '≥' : '>'} ${low.value}`, high && `${high.inclusive ? '≤' : '<'} ${high.value}`].filter(Boolean);
  return parts.length ? `${kind} ${parts.join(' and ')}` : kind;
}

/** The option of `command` that sets a path of the method input, if any. */
function flagFor(command: Command | undefined, path: readonly PropertyKey[]): { flag: string; value: unknown } | undefined {
  if (!command) return undefined;
  const joined = path.map(String).join('.');
  const last = [...path].reverse().find((k) => typeof k === 'string');
  const flag = FLAG_OF_PATH[joined] ?? (last === undefined ? undefined : `--${kebab(last)}`);
  const option = flag === undefined ? undefined : command.options.find((o) => o.long === flag);
  if (!option) return undefined;
  const source = command.getOptionValueSource(option.attributeName());
  return { flag: option.long!, value: source === 'cli' || source === 'env' ? command.getOptionValue(option.attributeName()) : undefined };
}

/** Input fields read from a file a flag names: their problems are placed in the file by field path, never by value. */
const FILE_FIELDS: Record<string, string> = { parameters: '--parameters', event: '--event', events: '--events' };

/** One issue in the command line's words. */
function cliIssue(issue: Issue, schema: AnySchema | undefined, command: Command | undefined): string {
  const fileFlag = typeof issue.path[0] === 'string' ? FILE_FIELDS[issue.path[0]] : undefined;
  const fileOption = fileFlag === undefined ? undefined : command?.options.find((o) => o.long === fileFlag);
  if (fileOption) {
    const file = command!.getOptionValue(fileOption.attributeName()) as unknown;
    return `${fileFlag}${typeof file === 'string' ? ` ${file}` : ''}: ${issueText({ ...issue, path: issue.path.slice(1) })}`;
  }
  const target = flagFor(command, issue.path);
  if (!target) return issueText(issue);
  const { flag, value } = target;
  const got = value === undefined ? '' : `, got ${typeof value === 'string' && !Number.isFinite(Number(value)) ? JSON.stringify(value) : String(value)}`;
  const range = numberRange(schemaAt(schema, issue.path));
  if (range && (issue.code === 'too_small' || issue.code === 'too_big' || issue.code === 'invalid_type' || issue.code === 'not_multiple_of')) return `${flag} must be ${range}${got}`;
  if (issue.code === 'invalid_value') return `${flag} must be ${issue.values.length === 1 ? String(issue.values[0]) : `one of ${issue.values.map(String).join(', ')}`}${got}`;
  if (issue.code === 'too_small' && issue.origin === 'string') return `${flag} must not be empty`;
  if (issue.code === 'too_big' && issue.origin === 'string') return `${flag} must be at most ${String(issue.maximum)} characters`;
  if (issue.code === 'too_big' && issue.origin === 'array') return `${flag} takes at most ${String(issue.maximum)} values`;
  if (issue.code === 'too_small' && issue.origin === 'array') return `${flag} needs at least ${String(issue.minimum)} value${Number(issue.minimum) === 1 ? '' : 's'}`;
  return `${flag}: ${issue.message}${got}`;
}

/** A BadRequestError's issues as one CLI line (its own message where it has none). */
export function badRequestLine(error: BadRequestError, command: Command | undefined): string {
  if (!error.method || error.issues.length === 0) return error.message.replace(/\s*\n\s*/g, '; ');
  const schema = contract[error.method].input as AnySchema;
  const lines = error.issues.map((issue) => cliIssue(issue, schema, command));
  const mapped = error.issues.some((issue, i) => lines[i] !== issueText(issue));
  return `${mapped ? '' : 'invalid input: '}${[...new Set(lines)].join('; ')}`;
}
