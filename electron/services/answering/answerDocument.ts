/**
 * The released answers document (`veil.dp-answers/v1`) and its certificate, issued the way
 * DP prompts are (synthesis/certificate.ts): without the commit-bound fields first, the
 * ledger commit records its release hash, then the commit completes it. Its event is what the
 * answers cost in all: the size release they were priced from (its own, earlier ledger entry,
 * named by `sizeLedger`), then the batch (the entry named by `ledger`).
 */
import type { Bounds } from '../../../core/accounting/accountant';
import { answersContentHash, DP_ANSWERS_FORMAT, type DpAnswersContent, type DpAnswersExport, type ReleasedAnswer } from '../../../core/export/dpAnswersFormat';
import { releaseHash } from '../../../core/export/dpPromptFormat';
import type { PromptTemplate } from '../../../core/icl/prompts';
import { APP_VERSION } from '../../shared/appInfo';
import type { ModelIdentity } from '../model/jobModel';
import { datasetFingerprint } from '../synthesis/certificate';
import type { SynthesisDataset } from '../synthesis/synthesisSource';
import type { PrivacyEvent } from '../../../core/accounting/events';
import type { PoolSizeSource } from '../../../core/icl/noisyPoolSizes';
import { sizeParameters, type SizeLedgerEntry } from '../sizes/poolSizes';
import type { PricedAnswers } from './answerPricing';
import { publicDataParameters } from './sgaSettings';

/** The size of the private split the batch was priced from: released (noisy, charged as its own ledger entry) or declared public. */
export interface ReleasedSize {
  units: number;
  source: PoolSizeSource;
  /** The size release's event (null where declared public). */
  event: PrivacyEvent | null;
  ledger: SizeLedgerEntry;
}

/** What the certificate releases without DP protection, and why that is no leak. */
export function answersPublicMetadata(size: ReleasedSize): Record<string, string> {
  return {
    'answers[].query': "the analyst's questions: public input, not records of the private split",
    'parameters.units, sampling.q':
      size.source.kind === 'noisy'
        ? 'the size of the private split plus discrete Laplace noise, charged as its own ledger entry (sizeLedger) and the first event of `event`; q = ensemble · shots / units'
        : 'the exact size of the private split, declared public by the analyst (outside the (ε, δ) guarantee); q = ensemble · shots / units',
  };
}

/** What an SGA certificate adds to it. */
const SGA_PUBLIC_METADATA: Record<string, string> = {
  'answers[].candidates, answers[].selected': "answers of the public ensemble (prompted with public examples only), chosen by the DP clustering's noisy centres, and the selection among them: post-processing",
};

/** The batch's public parameters, recorded alike in the ledger reservation and in the certificate. */
export function batchParameters(priced: PricedAnswers, units: number) {
  const { plan } = priced;
  const { request } = plan;
  return {
    ensemble: request.ensemble,
    shots: request.shots,
    queries: plan.queries,
    perQuery: request.perQuery,
    units,
    ...(plan.aggregation === 'vote' ? {} : { candidates: request.candidates, maxTokens: request.maxTokens }),
    ...(plan.aggregation === 'keyword' || plan.aggregation === 'ptr' ? { keywords: request.keywords } : {}),
    ...(plan.ptrDelta === null ? {} : { ptrDelta: plan.ptrDelta }),
    ...publicDataParameters(plan.aggregation, request, priced.publicExamples),
  };
}

/**
 * The batch reservation's parameters. `epsilon` is the most the answers may cost in all: the
 * requested ε for a batch, the priced total with perQuery (the request's ε is then per query).
 */
export function reservationParameters(priced: PricedAnswers, size: ReleasedSize) {
  const { plan } = priced;
  const epsilon = plan.request.perQuery ? plan.epsilon.upper : plan.request.epsilon;
  return { method: plan.aggregation, ...batchParameters(priced, size.units), epsilon, delta: plan.delta, ...sizeParameters(size.source) };
}

export interface UncommittedAnswers {
  document: Omit<DpAnswersExport, 'certificate'> & { certificate: Omit<DpAnswersExport['certificate'], 'ledger' | 'releaseHash'> };
  releaseHash: string;
}

export async function uncommittedAnswers(args: {
  dataset: SynthesisDataset;
  priced: PricedAnswers;
  size: ReleasedSize;
  template: PromptTemplate;
  answers: ReleasedAnswer[];
  epsilon: Bounds;
  accountant: string;
  model: ModelIdentity;
}): Promise<UncommittedAnswers> {
  const { plan } = args.priced;
  const content: DpAnswersContent = {
    format: DP_ANSWERS_FORMAT,
    task: { kind: args.dataset.task, labels: args.dataset.labels },
    instruction: args.template.instruction,
    answers: args.answers,
  };
  const document = {
    ...content,
    certificate: {
      mechanism: plan.aggregation,
      epsilon: args.epsilon,
      delta: plan.delta,
      accountant: args.accountant,
      neighbouring: 'add-remove' as const,
      privacyUnit: args.dataset.privacyUnit,
      sampling: { kind: 'poisson' as const, q: plan.q },
      parameters: { ...batchParameters(args.priced, args.size.units), noise: plan.noise, template: args.template },
      event: plan.totalEvent,
      poolSizes: args.size.source,
      ...(args.size.ledger ? { sizeLedger: args.size.ledger } : {}),
      dataset: { name: args.dataset.name, fingerprint: await datasetFingerprint(args.dataset) },
      model: args.model,
      appVersion: APP_VERSION,
      issuedAt: new Date().toISOString(),
      contentHash: await answersContentHash(content),
      publicMetadata: plan.aggregation === 'sga' ? { ...answersPublicMetadata(args.size), ...SGA_PUBLIC_METADATA } : answersPublicMetadata(args.size),
    },
  };
  return { document, releaseHash: await releaseHash(document) };
}

export function committedAnswers(issued: UncommittedAnswers, ledger: { entryId: number; entryHash: string }): DpAnswersExport {
  return { ...issued.document, certificate: { ...issued.document.certificate, ledger, releaseHash: issued.releaseHash } };
}
