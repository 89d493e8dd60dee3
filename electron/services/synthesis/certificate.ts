/**
 * Building the released document and its privacy certificate once the job has run: the
 * certificate is issued without its commit-bound fields, the ledger commit records the
 * release hash of that document, and the commit's entry completes the certificate.
 */
import type { Bounds } from '../../../core/accounting/accountant';
import { sha256Hex } from '../../../core/export/canonicalJson';
import { contentHash, DP_PROMPT_FORMAT, releaseHash, type CommitBound, type DpPromptContent, type DpPromptExport, type PrivacyCertificate } from '../../../core/export/dpPromptFormat';
import { renderFewShotPrompt, type Demonstration } from '../../../core/icl/prompts';
import { APP_VERSION } from '../../shared/appInfo';
import type { SynthesisRequest } from '../../shared/api/synthesis';
import type { PricedJob } from './synthesisPricing';
import type { SynthesisDataset } from './synthesisSource';

export interface ModelIdentity {
  backend: string;
  name: string;
  sha256: string | null;
}

/**
 * What the certificate states about pool sizes. The sampling rate q = M·N/|pool| is needed
 * to account the job and determines |pool| exactly, so releasing only the rates would hide
 * nothing; a DP count would need its own budget and a q not set from the exact size. Veil
 * therefore treats the per-label private counts as public metadata, as DP-SGD treats its
 * dataset size and sampling rate, and says so here and in docs/synthesis.md.
 */
export const PUBLIC_METADATA: Record<string, string> = {
  'parameters.pools[].units': 'exact number of privacy units in each label pool of the private split: public metadata, not protected by the (ε, δ) guarantee (as the dataset size in DP-SGD)',
  'parameters.pools[].q, sampling.q': 'sampling rates M·N / units, derived from those counts',
};

/** The job's public parameters, recorded alike in the ledger reservation and in the certificate. */
export function jobParameters(request: SynthesisRequest) {
  return {
    shots: request.shots,
    teachers: request.teachers,
    perTeacher: request.perTeacher,
    topK: request.topK,
    maxTokens: request.maxTokens,
    ...(request.method === 'adadpsyn' ? { rounds: request.rounds } : {}),
    ...(request.labels ? { labels: request.labels } : {}),
    ...(request.sampling === 'per-demonstration' ? { sampling: request.sampling } : {}),
  };
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

/** The document before its commit exists, and the release hash the commit must record. */
export interface UncommittedDocument {
  document: DpPromptContent & { certificate: Omit<PrivacyCertificate, CommitBound> };
  releaseHash: string;
}

export async function uncommittedDocument(args: {
  content: DpPromptContent;
  dataset: SynthesisDataset;
  priced: PricedJob;
  epsilon: Bounds;
  accountant: string;
  model: ModelIdentity;
}): Promise<UncommittedDocument> {
  const { plan, template } = args.priced;
  const document = {
    ...args.content,
    certificate: {
      mechanism: plan.request.method,
      epsilon: args.epsilon,
      delta: plan.delta,
      accountant: args.accountant,
      neighbouring: 'add-remove' as const,
      privacyUnit: args.dataset.privacyUnit,
      sampling: { kind: 'poisson' as const, q: Math.max(...plan.pools.map((p) => p.q)) },
      parameters: { ...jobParameters(plan.request), noise: plan.noise, pools: plan.pools, template },
      event: plan.event,
      dataset: { name: args.dataset.name, fingerprint: await datasetFingerprint(args.dataset) },
      model: args.model,
      appVersion: APP_VERSION,
      issuedAt: new Date().toISOString(),
      contentHash: await contentHash(args.content),
      publicMetadata: PUBLIC_METADATA,
    },
  };
  return { document, releaseHash: await releaseHash(document) };
}

/** The certificate completed with the commit that recorded its release hash. */
export function committedDocument(issued: UncommittedDocument, ledger: { entryId: number; entryHash: string }): DpPromptExport {
  return { ...issued.document, certificate: { ...issued.document.certificate, ledger, releaseHash: issued.releaseHash } };
}
