/**
 * The released answers document (`veil.dp-answers/v1`) and its certificate, issued the way
 * DP prompts are (synthesis/certificate.ts): without the commit-bound fields first, the
 * ledger commit records its release hash, then the commit completes it.
 */
import type { Bounds } from '../../../core/accounting/accountant';
import { answersContentHash, DP_ANSWERS_FORMAT, type DpAnswersContent, type DpAnswersExport, type ReleasedAnswer } from '../../../core/export/dpAnswersFormat';
import { releaseHash } from '../../../core/export/dpPromptFormat';
import type { PromptTemplate } from '../../../core/icl/prompts';
import { APP_VERSION } from '../../shared/appInfo';
import type { ModelIdentity } from '../model/jobModel';
import { datasetFingerprint } from '../synthesis/certificate';
import type { SynthesisDataset } from '../synthesis/synthesisSource';
import type { PricedAnswers } from './answerPricing';
import { publicDataParameters } from './sgaSettings';

/** What the certificate releases without DP protection, and why that is no leak. */
export const ANSWERS_PUBLIC_METADATA: Record<string, string> = {
  'answers[].query': "the analyst's questions: public input, not records of the private split",
  'parameters.noisyUnits, sampling.q': 'the size of the private split plus discrete Laplace noise (its ε is the first event of the batch), and q = ensemble · shots / noisyUnits',
};

/** What an SGA certificate adds to it. */
const SGA_PUBLIC_METADATA: Record<string, string> = {
  'answers[].candidates, answers[].selected': "answers of the public ensemble (prompted with public examples only), chosen by the DP clustering's noisy centres, and the selection among them: post-processing",
};

/** The batch's public parameters, recorded alike in the ledger reservation and in the certificate. */
export function batchParameters(priced: PricedAnswers, noisyUnits: number) {
  const { plan } = priced;
  const { request } = plan;
  return {
    ensemble: request.ensemble,
    shots: request.shots,
    queries: plan.queries,
    perQuery: request.perQuery,
    noisyUnits,
    sizeEpsilon: plan.sizeEpsilon,
    ...(plan.aggregation === 'vote' ? {} : { candidates: request.candidates, maxTokens: request.maxTokens }),
    ...(plan.aggregation === 'keyword' || plan.aggregation === 'ptr' ? { keywords: request.keywords } : {}),
    ...(plan.ptrDelta === null ? {} : { ptrDelta: plan.ptrDelta }),
    ...publicDataParameters(plan.aggregation, request, priced.publicExamples),
  };
}

export interface UncommittedAnswers {
  document: Omit<DpAnswersExport, 'certificate'> & { certificate: Omit<DpAnswersExport['certificate'], 'ledger' | 'releaseHash'> };
  releaseHash: string;
}

export async function uncommittedAnswers(args: {
  dataset: SynthesisDataset;
  priced: PricedAnswers;
  noisyUnits: number;
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
      parameters: { ...batchParameters(args.priced, args.noisyUnits), noise: plan.noise, template: args.template },
      event: plan.event,
      dataset: { name: args.dataset.name, fingerprint: await datasetFingerprint(args.dataset) },
      model: args.model,
      appVersion: APP_VERSION,
      issuedAt: new Date().toISOString(),
      contentHash: await answersContentHash(content),
      publicMetadata: plan.aggregation === 'sga' ? { ...ANSWERS_PUBLIC_METADATA, ...SGA_PUBLIC_METADATA } : ANSWERS_PUBLIC_METADATA,
    },
  };
  return { document, releaseHash: await releaseHash(document) };
}

export function committedAnswers(issued: UncommittedAnswers, ledger: { entryId: number; entryHash: string }): DpAnswersExport {
  return { ...issued.document, certificate: { ...issued.document.certificate, ledger, releaseHash: issued.releaseHash } };
}
