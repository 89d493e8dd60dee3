/**
 * The one API contract: every method the renderer (through the preload or the bridge)
 * and the CLI may call, with zod schemas for input and output, and the pushed events.
 * Each domain lives in ./api/<domain>.ts; add its methods and events here.
 */
import type { z } from 'zod';
import { answeringEvents, answeringMethods } from './api/answering';
import { appMethods } from './api/app';
import { auditMethods } from './api/audit';
import { augmentationMethods } from './api/augmentation';
import { jobEvents, jobMethods } from './api/jobs';
import { ledgerEvents, ledgerMethods } from './api/ledger';
import { modelMethods } from './api/model';
import { plannerMethods } from './api/planner';
import { privacyUnitMethods } from './api/privacyUnits';
import { publicSourceMethods } from './api/publicSource';
import { sizeMethods } from './api/sizes';
import { synthesisEvents, synthesisMethods } from './api/synthesis';
import { synthesisPreviewMethods } from './api/synthesisPreview';
import { vaultEvents, vaultMethods } from './api/vault';
import { vaultFileMethods } from './api/vaultFiles';

export const contract = {
  ...appMethods,
  ...jobMethods,
  ...modelMethods,
  ...vaultMethods,
  ...vaultFileMethods,
  ...ledgerMethods,
  ...synthesisMethods,
  ...synthesisPreviewMethods,
  ...plannerMethods,
  ...sizeMethods,
  ...answeringMethods,
  ...auditMethods,
  ...publicSourceMethods,
  ...augmentationMethods,
  ...privacyUnitMethods,
};

export const eventContract = {
  ...jobEvents,
  ...vaultEvents,
  ...ledgerEvents,
  ...synthesisEvents,
  ...answeringEvents,
};

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;
/** What a handler receives: the input after validation (defaults applied). */
export type MethodParams<M extends MethodName> = z.output<Contract[M]['input']>;
export type EventName = keyof typeof eventContract;
export type EventPayload<E extends EventName> = z.output<(typeof eventContract)[E]>;

export const methodNames = Object.keys(contract) as MethodName[];
export const eventNames = Object.keys(eventContract) as EventName[];

/** The typed client every front end gets (window.veil in Electron, the bridge client in a browser). */
export type VeilApi = {
  [M in MethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
