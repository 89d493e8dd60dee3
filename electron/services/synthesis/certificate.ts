/** Building the released document and its privacy certificate once the job has run. */
import type { Bounds } from '../../../core/accounting/accountant';
import { sha256Hex } from '../../../core/export/canonicalJson';
import { contentHash, DP_PROMPT_FORMAT, type DpPromptContent, type DpPromptExport } from '../../../core/export/dpPromptFormat';
import { renderFewShotPrompt, type Demonstration } from '../../../core/icl/prompts';
import { APP_VERSION } from '../../shared/appInfo';
import type { PricedJob } from './synthesisPricing';
import type { SynthesisDataset } from './synthesisSource';

export interface ModelIdentity {
  backend: string;
  name: string;
  sha256: string | null;
}

/**
 * Identifies the dataset without hashing its content: a hash of the private records would
 * be a deterministic (non-DP) function of them. Id, name and creation time are public.
 */
export function datasetFingerprint(dataset: SynthesisDataset): Promise<string> {
  return sha256Hex(`veil-dataset/v1:${dataset.id}:${dataset.name}:${dataset.createdAt}`);
}

export function releasedContent(dataset: SynthesisDataset, priced: PricedJob, demonstrations: Demonstration[]): DpPromptContent {
  return {
    format: DP_PROMPT_FORMAT,
    task: { kind: dataset.task, labels: dataset.labels },
    instruction: priced.template.instruction,
    demonstrations,
    prompt: renderFewShotPrompt(priced.template, demonstrations),
  };
}

export async function certifiedDocument(args: {
  content: DpPromptContent;
  dataset: SynthesisDataset;
  priced: PricedJob;
  epsilon: Bounds;
  accountant: string;
  model: ModelIdentity;
  ledger: { entryId: number; entryHash: string };
}): Promise<DpPromptExport> {
  const { plan, template } = args.priced;
  const { request } = plan;
  return {
    ...args.content,
    certificate: {
      mechanism: request.method,
      epsilon: args.epsilon,
      delta: plan.delta,
      accountant: args.accountant,
      neighbouring: 'add-remove',
      privacyUnit: args.dataset.privacyUnit,
      sampling: { kind: 'poisson', q: Math.max(...plan.pools.map((p) => p.q)) },
      parameters: {
        shots: request.shots,
        teachers: request.teachers,
        perTeacher: request.perTeacher,
        topK: request.topK,
        maxTokens: request.maxTokens,
        ...(request.method === 'adadpsyn' ? { rounds: request.rounds } : {}),
        noise: plan.noise,
        pools: plan.pools,
        template,
      },
      event: plan.event,
      dataset: { name: args.dataset.name, fingerprint: await datasetFingerprint(args.dataset) },
      model: args.model,
      ledger: args.ledger,
      appVersion: APP_VERSION,
      issuedAt: new Date().toISOString(),
      contentHash: await contentHash(args.content),
    },
  };
}
