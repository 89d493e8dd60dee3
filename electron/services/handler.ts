/** Types for domain handler maps: one async function per contract method. */
import type { MethodName, MethodOutput, MethodParams } from '../shared/contract';
import type { ServiceContext } from './context';

export type Handler<M extends MethodName> = (input: MethodParams<M>, ctx: ServiceContext) => Promise<MethodOutput<M>>;
export type HandlerMap<M extends MethodName> = { [K in M]: Handler<K> };
