/**
 * Private answering jobs (DP-ICL): resolve the queries → check the model → release the noisy
 * size of the private split → calibrate and price the batch on it → reserve the batch's event
 * in the ledger (refused over budget, nothing written) → answer query by query as a job with
 * progress per query and per teacher → commit with the release hash of the answers document
 * → store the certified document, and in evaluation mode the scores. A cancelled, failed or
 * crashed batch keeps its reservation charged. Nothing private is logged or stored: only the
 * released answers (and, after the batch, the number of failed teachers) leave the job.
 */
import { accountEpsilon } from '../../../core/accounting';
import { verifyDpAnswers } from '../../../core/export/verifyDpAnswers';
import type { ReleasedAnswer } from '../../../core/export/dpAnswersFormat';
import { answerBatch } from '../../../core/icl/answering/answerBatch';
import type { AnswerSettings, AnswerTask } from '../../../core/icl/answering/answerQuery';
import { answerQueryEvent } from '../../../core/icl/answering/answerEvents';
import { defaultTemplate, type Demonstration, type PromptTemplate } from '../../../core/icl/prompts';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import type { AnswerPlanDto, AnswerRequest, AnswerRunDto } from '../../shared/api/answering';
import type { SynthesisRunDto } from '../../shared/api/synthesis';
import type { ServiceContext } from '../context';
import type { JobContext } from '../jobs/jobManager';
import { privacyUnitCount } from '../ledger/datasets';
import type { LedgerService } from '../ledger/ledgerService';
import { budgetState, certificateLedgerView, type BudgetState } from '../ledger/releaseLedger';
import { jobModel, publicReason, type ModelIdentity } from '../model/jobModel';
import { RemoteServerError } from '../model/openai/openaiClient';
import { RefusalError } from '../refusalError';

import type { LabelledExample, SynthesisDataset, SynthesisSource } from '../synthesis/synthesisSource';
import { committedAnswers, reservationParameters, uncommittedAnswers, type ReleasedSize } from './answerDocument';
import { hasPublicDemonstrations, publicExamples } from './publicExamples';
import { checkPublicData, checkSgaCapabilities, PUBLIC_EXAMPLES_LIMIT, publicDemonstrations, sgaOptions, usesPublicData } from './sgaSettings';
import { evaluateAnswers } from './answerEvaluation';
import { checkCoversSize, defaultAggregation, priceAnswers, type PricedAnswers } from './answerPricing';
import { poolSizeEvent } from '../../../core/icl/noisyPoolSizes';
import { chargeSizeRelease, refuseAboveCap } from '../sizes/poolSizes';
import type { AnswerRunStore } from './answerRunStore';

/** Sampling temperature of the public zero-shot candidates (diverse answers). */
export const CANDIDATE_TEMPERATURE = 1;

/** The batch's questions, and in evaluation mode their held-out references. */
interface Queries {
  texts: string[];
  references: string[] | null;
}

export function answerTemplate(dataset: SynthesisDataset, request: Pick<AnswerRequest, 'instruction' | 'maxExampleChars'>): PromptTemplate {
  const instruction = request.instruction ?? (dataset.task === 'classification' ? `Classify each text as one of: ${dataset.labels.join(', ')}.` : 'Answer each text as in the examples.');
  return { ...defaultTemplate(instruction), maxExampleChars: request.maxExampleChars };
}

export const answerTask = (dataset: SynthesisDataset): AnswerTask => (dataset.task === 'classification' ? { kind: 'classification', labels: dataset.labels } : { kind: 'generation' });

export class AnsweringService {
  constructor(
    private readonly ctx: ServiceContext,
    readonly runs: AnswerRunStore,
    private readonly ledger: LedgerService,
    readonly source: SynthesisSource,
    /** The dataset's synthesis runs (evaluation mode compares with the best evaluated one). */
    private readonly synthesisRuns: (dataset: string) => Promise<SynthesisRunDto[]>,
  ) {}

  /**
   * A preview: priced with the exact size of the private split (shown to the analyst, never
   * released). The plan needs only whether there are public demonstrations, not the examples.
   */
  async price(request: AnswerRequest): Promise<AnswerPlanDto> {
    const dataset = await this.source.dataset(request.dataset);
    const queries = await this.queries(dataset, request);
    const publicExamples = (await hasPublicDemonstrations(this.ledger.db, dataset)) ? 1 : 0;
    return priceAnswers({ request, dataset, units: await this.units(dataset), queries: queries.texts.length, budget: await this.budgetState(dataset), publicExamples }).plan;
  }

  /**
   * A sample of the dataset's public demonstrations (records of its public split, or its public
   * source's, with a non-blank output: publicExamples.ts), none exactly where the preview found none.
   */
  private async publicDemonstrations(dataset: SynthesisDataset): Promise<Demonstration[]> {
    return publicDemonstrations(await publicExamples(this.ledger.db, this.source, dataset, PUBLIC_EXAMPLES_LIMIT, { withOutput: true }));
  }

  private async units(dataset: SynthesisDataset): Promise<number> {
    const units = (await privacyUnitCount(this.ledger.db, dataset.id)) ?? 0;
    if (units === 0) throw new RefusalError(`the private split of "${dataset.name}" is empty: there is nothing to answer with`);
    return units;
  }

  private async queries(dataset: SynthesisDataset, request: AnswerRequest): Promise<Queries> {
    if (request.evaluate === undefined) {
      if (request.queries.length === 0) throw new RefusalError('no queries to answer: give at least one');
      return { texts: request.queries, references: null };
    }
    if (request.queries.length > 0) throw new RefusalError('evaluation mode answers held-out records: give no queries with it');
    const examples = (await this.source.examples(dataset, 'held-out', request.evaluate)).filter((e) => reference(dataset, e) !== null);
    if (examples.length === 0) throw new RefusalError(`dataset "${dataset.name}" has no held-out records with a reference to evaluate on`);
    return { texts: examples.map((e) => e.text), references: examples.map((e) => reference(dataset, e)!) };
  }

  budgetState(dataset: SynthesisDataset): Promise<BudgetState | null> {
    return budgetState(this.ledger, dataset.id);
  }

  /**
   * Releases and charges the size of the private split (its own ledger entry, or the exact size
   * where declared public), prices the batch from that size, reserves the batch's event (or
   * throws, writing nothing more) and starts the job. Nothing before the size release reads the
   * exact size: a batch refused after it leaves the size release charged (ARCHITECTURE §4).
   */
  async start(request: AnswerRequest): Promise<{ jobId: string; runId: number }> {
    const dataset = await this.source.dataset(request.dataset);
    const demos = await this.publicDemonstrations(dataset);
    const method = defaultAggregation(dataset, request.aggregation, demos.length);
    const queries = await this.queries(dataset, request);
    const model = await jobModel(this.ctx); // before reserving: a missing model charges nothing
    checkCapabilities(model.model, method, request);
    checkPublicData(dataset, method, request, demos.length);
    // Refusals that need no size: they depend on the request, the setting and the cap only.
    checkCoversSize(request, poolSizeEvent(dataset.sizePublic === true));
    refuseAboveCap(request, await this.budgetState(dataset));
    const sized = await chargeSizeRelease(this.ledger, dataset, new Map([['all', await this.units(dataset)]]), 'size of the private split for DP answers');
    const units = sized.sizes.get('all')!;
    const size = { units, source: sized.source, event: sized.event, ledger: sized.ledger };
    const priced = priceAnswers({ request, dataset, units, queries: queries.texts.length, budget: await this.budgetState(dataset), sizeCharged: true, publicExamples: demos.length });
    const { jobId, prepared } = await this.ctx.jobs.launch(
      'answering',
      async (jobId) => {
        const reservation = await this.ledger.reserve(dataset.id, priced.plan.event, {
          purpose: `DP answers: ${queries.texts.length} ${queries.texts.length === 1 ? 'query' : 'queries'} by ${method}${request.evaluate === undefined ? '' : ' (evaluation on held-out records)'}`,
          parameters: reservationParameters(priced, size),
          jobId,
          privacyUnit: dataset.privacyUnit,
        });
        const runId = await this.runs.create({ dataset: dataset.name, aggregation: method, jobId, request, epsilon: request.epsilon, delta: priced.plan.delta, queries: queries.texts.length });
        await this.runs.setLedgerEntry(runId, reservation.id);
        return { runId, reservationId: reservation.id };
      },
      (job, { runId, reservationId }) => this.answer(job, { runId, reservationId, priced, size, dataset, queries, model, publicExamples: demos }),
    );
    const { runId } = prepared;
    return { jobId, runId };
  }

  private settings(job: JobContext, priced: PricedAnswers, dataset: SynthesisDataset, model: LanguageModel, noise: number | null, demos: Demonstration[]): Promise<Omit<AnswerSettings, 'onTeacher'>> {
    const { request, aggregation } = priced.plan;
    return this.source.pool(dataset, undefined).then((pool) => ({
      model, pool, template: answerTemplate(dataset, request), task: answerTask(dataset), method: aggregation,
      ensemble: request.ensemble, shots: request.shots, q: priced.plan.q, noise, ptrDelta: priced.ptrDelta, keywords: request.keywords,
      candidates: request.candidates, candidateTemperature: CANDIDATE_TEMPERATURE, maxTokens: request.maxTokens, random: cryptoRandom, signal: job.signal,
      ...(usesPublicData(aggregation, request, demos.length) ? { publicExamples: demos } : {}),
      ...(aggregation === 'sga' ? { sga: sgaOptions(request) } : {}),
    }));
  }

  private async answer(
    job: JobContext,
    args: {
      runId: number; reservationId: number; priced: PricedAnswers; size: ReleasedSize; dataset: SynthesisDataset; queries: Queries;
      model: { model: LanguageModel; identity: ModelIdentity }; publicExamples: Demonstration[];
    },
  ) {
    const { runId, priced, dataset, queries } = args;
    try {
      const settings = await this.settings(job, priced, dataset, args.model.model, priced.parameter, args.publicExamples);
      const { results, failedTeachers } = await answerBatch(settings, queries.texts, (p) => {
        job.progress('queries', p.queriesDone, p.queriesTotal, `query ${Math.min(p.queriesDone + 1, p.queriesTotal)} of ${p.queriesTotal}: teacher ${p.teachersDone} of ${p.teachersTotal}`);
        this.ctx.emit('ask.progress', { runId, jobId: job.id, ...p });
      });
      job.throwIfCancelled();
      const answers: ReleasedAnswer[] = results.map((r, i) => ({ query: queries.texts[i], ...r }));
      const issued = await uncommittedAnswers({ dataset, priced, size: args.size, template: settings.template, answers, epsilon: priced.plan.epsilon, accountant: priced.plan.accountant, model: args.model.identity });
      const commit = await this.ledger.commit(args.reservationId, { outputHash: issued.releaseHash });
      await this.runs.setLedgerEntry(runId, commit.id);
      await this.runs.finish(runId, 'succeeded', { document: committedAnswers(issued, { entryId: commit.id, entryHash: commit.entryHash }), failedTeachers });
      if (queries.references) {
        await this.runs.setEvaluation(runId, await evaluateAnswers({ job, dataset, settings, queries: queries.texts, references: queries.references, released: answers.map((a) => a.answer), synthesisRuns: () => this.synthesisRuns(dataset.name), cost: evaluationCost(priced, args.size.units) }));
      }
      return { runId, ledgerEntryId: commit.id, failedTeachers };
    } catch (error) {
      const cancelled = job.signal.aborted;
      const reason = cancelled ? 'cancelled' : publicReason(error);
      const run = await this.runs.get(runId);
      if (run.status === 'running') await this.runs.finish(runId, cancelled ? 'cancelled' : 'failed', { error: `${reason}; the reserved budget stays spent (some answers may have been computed)` });
      throw cancelled || !(error instanceof RemoteServerError) ? error : new Error(reason);
    }
  }

  verify(text: string) {
    return verifyDpAnswers(text, {
      epsilonOf: (event, delta) => accountEpsilon(event, delta).bounds,
      ledger: certificateLedgerView(this.ledger, async (entryId) => (await this.runs.byLedgerEntry(entryId))?.document),
    });
  }

  get(id: number): Promise<AnswerRunDto> {
    return this.runs.get(id);
  }
}

/** One query's event at the batch's noise and size (the break-even's unit), with the batch's δ and total ε. */
const evaluationCost = (priced: PricedAnswers, units: number) => ({ query: answerQueryEvent(priced.shape, units, priced.parameter, priced.ptrDelta), delta: priced.plan.delta, epsilon: priced.plan.epsilon.upper });

const reference = (dataset: SynthesisDataset, e: LabelledExample): string | null => (dataset.task === 'classification' ? e.label : e.output);

/** Refused before anything is reserved: the aggregation needs what the model cannot do. */
function checkCapabilities(model: LanguageModel, method: string, request: Pick<AnswerRequest, 'sgaSelection'>): void {
  const needs = method === 'vote' ? (['scoreLabels', 'score labels'] as const) : (['generate', 'generate text'] as const);
  if (!model.capabilities[needs[0]]) throw new RefusalError(`the active model cannot ${needs[1]}, which ${method} answering needs`);
  if (method === 'embedding' && !model.capabilities.embeddings) throw new RefusalError('the active model gives no embeddings, which embedding space aggregation needs');
  if (method === 'sga') checkSgaCapabilities(model, request.sgaSelection);
}
