/**
 * Building the released document and its privacy certificate once the job has run: the
 * certificate is issued without its commit-bound fields, the ledger commit records the
 * release hash of that document, and the commit's entry completes the certificate. The size
 * release's entry (`sizeLedger`, committed before the job was priced) is part of the hashed
 * document.
 */
import { sha256Hex } from '../../../core/export/canonicalJson';
import { contentHash, DP_PROMPT_FORMAT, releaseHash, type CommitBound, type DpPromptContent, type DpPromptExport, type PrivacyCertificate } from '../../../core/export/dpPromptFormat';
import type { PoolSizeSource } from '../../../core/icl/noisyPoolSizes';
import { renderFewShotPrompt, type Demonstration } from '../../../core/icl/prompts';
import { APP_VERSION } from '../../shared/appInfo';
import type { SynthesisRequest } from '../../shared/api/synthesis';
import type { PricedJob } from './synthesisPricing';
import type { SynthesisDataset } from './synthesisSource';
import type { ModelIdentity } from '../model/jobModel';
import type { SizeLedgerEntry } from '../sizes/poolSizes';

export type { ModelIdentity } from '../model/jobModel';

/**
 * What the certificate states about pool sizes (issue 20). By default `parameters.pools[].units`
 * are NOISY counts (discrete Laplace, charged as their own ledger entry `sizeLedger` before the
 * job, and the first part of `event`), and q and everything after are computed from them:
 * nothing exact is released. Where the analyst declared the dataset's size public, the exact
 * sizes are used and this says so.
 */
export function sizeMetadata(source: PoolSizeSource): Record<string, string> | undefined {
  if (source.kind === 'noisy') return undefined;
  return {
    'parameters.pools[].units': 'exact number of privacy units in each label pool: the analyst declared the dataset size public (dataset setting, recorded in the ledger); not protected by the (ε, δ) guarantee',
    'parameters.pools[].q, sampling.q': 'sampling rates M·N / units, derived from those counts',
  };
}

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
  /** The commit of the pool-size release the job was priced from (null: sizes declared public). */
  sizeLedger: SizeLedgerEntry;
  model: ModelIdentity;
}): Promise<UncommittedDocument> {
  const { plan, template } = args.priced;
  const document = {
    ...args.content,
    certificate: {
      mechanism: plan.request.method,
      epsilon: plan.epsilon,
      delta: plan.delta,
      accountant: plan.accountant,
      neighbouring: 'add-remove' as const,
      privacyUnit: args.dataset.privacyUnit,
      sampling: { kind: 'poisson' as const, q: Math.max(...plan.pools.map((p) => p.q)) },
      parameters: { ...jobParameters(plan.request), noise: plan.noise, pools: plan.pools, template },
      // What the prompt costs in all: the size release (entry `sizeLedger`), then the job (entry `ledger`).
      event: plan.totalEvent,
      dataset: { name: args.dataset.name, fingerprint: await datasetFingerprint(args.dataset) },
      model: args.model,
      appVersion: APP_VERSION,
      issuedAt: new Date().toISOString(),
      contentHash: await contentHash(args.content),
      poolSizes: args.priced.poolSizes,
      ...(args.sizeLedger ? { sizeLedger: args.sizeLedger } : {}),
      publicMetadata: sizeMetadata(args.priced.poolSizes),
    },
  };
  return { document, releaseHash: await releaseHash(document) };
}

/** The certificate completed with the commit that recorded its release hash. */
export function committedDocument(issued: UncommittedDocument, ledger: { entryId: number; entryHash: string }): DpPromptExport {
  return { ...issued.document, certificate: { ...issued.document.certificate, ledger, releaseHash: issued.releaseHash } };
}
