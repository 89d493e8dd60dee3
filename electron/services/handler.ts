/** Types for domain handler maps: one async function per contract method. */
import type { MethodInput, MethodName, MethodOutput } from '../shared/contract';
import type { ServiceContext } from './context';

export type Handler<M extends MethodName> = (input: MethodInput<M>, ctx: ServiceContext) => Promise<MethodOutput<M>>;
export type HandlerMap<M extends MethodName> = { [K in M]: Handler<K> };
