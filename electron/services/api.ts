/**
 * The service API: validates every request against the contract, runs its handler,
 * validates the response. The Electron IPC layer, the loopback bridge and tests all call
 * `callMethod`; nothing reaches a handler without passing its zod schema.
 */
import { z } from 'zod';
import { contract, type MethodName, type MethodOutput } from '../shared/contract';
import { appHandlers, jobHandlers } from './app/appHandlers';
import type { ServiceContext } from './context';
import type { HandlerMap } from './handler';
import { ledgerHandlers } from './ledger/ledgerHandlers';
import { modelHandlers } from './model/modelHandlers';
import { plannerHandlers } from './planner/plannerHandlers';
import { synthesisHandlers } from './synthesis/synthesisHandlers';
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
};

/** A request that failed validation or named no method: the caller's fault (HTTP 400). */
export class BadRequestError extends Error {}

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
  if (!parsed.success) throw new BadRequestError(`invalid input for ${name}: ${z.prettifyError(parsed.error)}`);
  const handler = handlers[name] as (input: unknown, ctx: ServiceContext) => Promise<unknown>;
  const output = await handler(parsed.data, ctx);
  return spec.output.parse(output) as MethodOutput<M>;
}
