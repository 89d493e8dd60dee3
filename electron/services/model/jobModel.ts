/**
 * What a model-backed job (synthesis, answering) takes from the model service before it
 * starts, and how its failures are told without quoting private text.
 */
import type { LanguageModel } from '../../../core/model/languageModel';
import type { ServiceContext } from '../context';
import { RefusalError } from '../refusalError';
import { getModelService } from './modelHandlers';
import { RemoteServerError } from './openai/openaiClient';

export interface ModelIdentity {
  backend: string;
  name: string;
  sha256: string | null;
}

/**
 * The model a job runs on, and its identity for the certificate, taken together before the
 * job starts: the analyst may switch backends while it runs, and the job keeps this model.
 */
export async function jobModel(ctx: ServiceContext): Promise<{ model: LanguageModel; identity: ModelIdentity }> {
  const models = await getModelService(ctx);
  const model = await models.current();
  const status = await models.status();
  if (status.active.backend !== model.info.backend || status.active.name !== model.info.name) throw new RefusalError('the model changed while the job was starting: start it again');
  return { model, identity: { backend: model.info.backend, name: model.info.name, sha256: status.gguf?.sha256 ?? null } };
}

/**
 * Why a job failed, as stored in the run and the job record. A remote server's own
 * explanation may quote the prompt it was sent (teacher prompts hold private records; the
 * utility check's, held-out ones), so only its HTTP status is kept.
 */
export function publicReason(error: unknown): string {
  if (error instanceof RemoteServerError && error.status > 0) return `the remote model server answered HTTP ${error.status} (its explanation is not kept: it may quote the private prompt)`;
  return error instanceof Error ? error.message : String(error);
}
