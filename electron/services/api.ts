/**
 * The service API: validates every request against the contract, runs its handler,
 * validates the response. The Electron IPC layer, the loopback bridge and tests all call
 * `callMethod`; nothing reaches a handler without passing its zod schema.
 */
import { z } from 'zod';
import { contract, type MethodName, type MethodOutput } from '../shared/contract';
import { appHandlers, jobHandlers } from './app/appHandlers';
import { auditHandlers } from './audit/auditHandlers';
import { augmentationHandlers } from './augmentation/augmentationHandlers';
import type { ServiceContext } from './context';
import type { HandlerMap } from './handler';
import { ledgerHandlers } from './ledger/ledgerHandlers';
import { privacyUnitHandlers } from './ledger/privacyUnitHandlers';
import { modelHandlers } from './model/modelHandlers';
import { plannerHandlers } from './planner/plannerHandlers';
import { sizeHandlers } from './sizes/sizeHandlers';
import { synthesisHandlers } from './synthesis/synthesisHandlers';
import { answeringHandlers } from './answering/answeringHandlers';
import { certificateHandlers } from './answering/certificateHandlers';
import { publicSourceHandlers } from './answering/publicSourceHandlers';
import { vaultFileHandlers } from './vault/vaultFileHandlers';
import { vaultHandlers } from './vault/vaultHandlers';

const handlers: HandlerMap<MethodName> = {
  ...appHandlers,
  ...jobHandlers,
  ...modelHandlers,
  ...vaultHandlers,
  ...vaultFileHandlers,
  ...ledgerHandlers,
  ...synthesisHandlers,
  ...plannerHandlers,
  ...sizeHandlers,
  ...answeringHandlers,
  ...certificateHandlers,
  ...auditHandlers,
  ...publicSourceHandlers,
  ...augmentationHandlers,
  ...privacyUnitHandlers,
};

/**
 * A request that failed validation or named no method: the caller's fault (HTTP 400).
 * A validation failure keeps the method and the schema issues (paths and codes, never the
 * input), so a caller such as the CLI can restate them in its own terms.
 */
export class BadRequestError extends Error {
  constructor(
    message: string,
    readonly method?: MethodName,
    readonly issues: readonly z.core.$ZodIssue[] = [],
  ) {
    super(message);
  }
}

/** A key of a path, shown only when it reads as a field name: a key taken from the input may be anyone's text. */
const FIELD_NAME = /^[A-Za-z_$][\w$-]{0,63}$/;

/** "workload.topK", "records[2].label"; a key that is not a plain field name shows as "…". */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${typeof key === 'string' && FIELD_NAME.test(key) ? key : '…'}`)).join('');
}

/** One issue as "path: message" (an unknown key is named only when it reads as a field name). */
export function issueText(issue: z.core.$ZodIssue): string {
  const at = issuePath(issue.path);
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const shown = issue.keys.filter((key) => FIELD_NAME.test(key));
    const hidden = issue.keys.length - shown.length;
    message = `unknown field${issue.keys.length === 1 ? '' : 's'} ${[...shown.map((key) => `"${key}"`), ...(hidden ? [`${hidden} other${hidden === 1 ? '' : 's'}`] : [])].join(', ')}`;
  }
  return at ? `${at}: ${message}` : message;
}

/** Every issue on one line, "; "-joined. */
export const issuesLine = (issues: readonly z.core.$ZodIssue[]): string => issues.map(issueText).join('; ');

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(contract, name);
}

export async function callMethod<M extends MethodName>(
  ctx: ServiceContext,
  name: M,
  rawInput: unknown,
): Promise<MethodOutput<M>> {
  if (!isMethodName(name)) throw new BadRequestError(`unknown method ${String(name)}`);
  const spec = contract[name];
  const parsed = spec.input.safeParse(rawInput ?? {});
  if (!parsed.success) throw new BadRequestError(`invalid input for ${name}: ${issuesLine(parsed.error.issues)}`, name, parsed.error.issues);
  const handler = handlers[name] as (input: unknown, ctx: ServiceContext) => Promise<unknown>;
  const output = await handler(parsed.data, ctx);
  return spec.output.parse(output) as MethodOutput<M>;
}
