/**
 * Synthesis jobs: price → reserve in the ledger (refused over budget, nothing written) →
 * generate as a job with live progress → commit with the release hash of the document
 * (content and certificate, certificate.ts) → store the certified document. A cancelled,
 * failed or crashed job keeps its reservation charged. The job never logs or stores
 * private text: only the synthetic demonstrations (a DP release) leave it.
 */
import { accountEpsilon } from '../../../core/accounting';
import { verifyDpPrompt } from '../../../core/export/verifyDpPrompt';
import type { StepTiming } from '../../../core/icl/demonstration';
import { synthesizeDemonstrations } from '../../../core/icl/synthesize';
import { newTeacherTally } from '../../../core/icl/teacherEvaluation';
import { getStepCosts } from './stepCosts';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import type { SynthesisRequest, SynthesisRunDto } from '../../shared/api/synthesis';
import type { ServiceContext } from '../context';
import type { JobContext } from '../jobs/jobManager';
import type { LedgerService } from '../ledger/ledgerService';
import { budgetState, certificateLedgerView, type BudgetState } from '../ledger/releaseLedger';
import { getModelService } from '../model/modelHandlers';
import { committedDocument, jobParameters, releasedContent, uncommittedDocument } from './certificate';
import { jobModel, publicReason, type ModelIdentity } from '../model/jobModel';
import { RunStore } from './runStore';
import { privacyUnitCount } from '../ledger/datasets';
import { RemoteServerError } from '../model/openai/openaiClient';
import { priceSynthesis, synthesisFamily, type PricedJob } from './synthesisPricing';
import { releaseDatasetSizes, sizeParameters } from '../sizes/poolSizes';
import type { SynthesisDataset, SynthesisSource } from './synthesisSource';
import { evaluateUtility } from './utilityCheck';
import { previewOnPublic } from './publicPreview';
import { previewCurve } from './previewCurve';
import { modelForDataset } from './domainLearner';
import type { PromptTemplate } from '../../../core/icl/prompts';
import { RefusalError } from '../refusalError';

export class SynthesisService {
  constructor(
    private readonly ctx: ServiceContext,
    readonly runs: RunStore,
    private readonly ledger: LedgerService,
    private readonly source: SynthesisSource,
  ) {}

  /**
   * A preview: priced with the exact pool sizes, shown to the analyst only (never released).
   * With `release`, the job's own pricing: the sizes of the pools it uses are released first —
   * noisy (charged in the job's event), or exact where the analyst declared them public.
   */
  async price(request: SynthesisRequest, release = false): Promise<{ priced: PricedJob; dataset: SynthesisDataset }> {
    const { dataset, poolUnits } = await this.pools(request.dataset);
    // N of the whole private split, as the planner and the ledger count it (δ default: defaultDelta(N)).
    const units = (await privacyUnitCount(this.ledger.db, dataset.id)) ?? 0;
    const budget = await this.budgetState(dataset);
    if (!release) return { priced: priceSynthesis(request, dataset, poolUnits, budget, units), dataset };
    const used = new Map(synthesisFamily(request, dataset, poolUnits).pools.map((p) => [p.label, poolUnits.get(p.label)!]));
    const { sizes } = releaseDatasetSizes(dataset, used);
    return { priced: priceSynthesis(request, dataset, sizes, budget, units), dataset };
  }

  /** The dataset and the privacy units of each private pool (one per public label, or the whole split). */
  async pools(name: string): Promise<{ dataset: SynthesisDataset; poolUnits: Map<string | undefined, number> }> {
    const dataset = await this.source.dataset(name);
    const labels = dataset.task === 'classification' ? dataset.labels : [undefined];
    const poolUnits = new Map<string | undefined, number>();
    for (const label of labels) poolUnits.set(label, (await this.source.pool(dataset, label)).units);
    return { dataset, poolUnits };
  }

  /** The budget in force and every event reserved against it (committed or not). */
  budgetState(dataset: SynthesisDataset): Promise<BudgetState | null> {
    return budgetState(this.ledger, dataset.id);
  }

  /** Reserves the job's event (or throws, writing nothing) and starts the job. */
  async start(request: SynthesisRequest): Promise<{ jobId: string; runId: number }> {
    const { priced, dataset } = await this.price(request, true);
    const generator = await this.generatorModel(dataset, priced); // before reserving: a missing model charges nothing
    checkCandidates(generator.model, request.topK);
    // The job's record comes first: no process may see a reservation or run naming a job that is not recorded.
    const { jobId, prepared } = await this.ctx.jobs.launch(
      'synthesis',
      async (jobId) => {
        const reservation = await this.ledger.reserve(dataset.id, priced.plan.event, {
          purpose: `DP synthetic prompt: ${request.shots} shots, ${request.method}`,
          parameters: { method: request.method, ...jobParameters(request), epsilon: request.epsilon, delta: priced.plan.delta, ...sizeParameters(priced.poolSizes) },
          jobId,
          privacyUnit: dataset.privacyUnit,
        });
        const runId = await this.runs.create(request, jobId, priced.plan.delta);
        await this.runs.setLedgerEntry(runId, reservation.id);
        return { runId, reservationId: reservation.id };
      },
      (job, { runId, reservationId }) => this.generate(job, runId, reservationId, priced, dataset, generator),
    );
    const { runId } = prepared;
    return { jobId, runId };
  }

  /** The job's model (jobModel), as the dataset's own reference learner when it is the built-in one. */
  private async generatorModel(dataset: SynthesisDataset, priced: PricedJob): Promise<{ model: LanguageModel; identity: ModelIdentity }> {
    const job = await jobModel(this.ctx);
    const model = await modelForDataset(job.model, this.source, dataset, priced.template);
    return { model, identity: { ...job.identity, backend: model.info.backend, name: model.info.name } };
  }

  private async generate(job: JobContext, runId: number, reservationId: number, priced: PricedJob, dataset: SynthesisDataset, { model, identity }: { model: LanguageModel; identity: ModelIdentity }) {
    // Failed teachers are counted here and stored only once the job has ended, in aggregate.
    const teacherTally = newTeacherTally();
    try {
      const pools = await Promise.all(priced.pools.map(async (plan) => ({ plan, pool: await this.source.pool(dataset, plan.label) })));
      const timing: StepTiming = { modelMs: 0, mechanismMs: 0 };
      const demonstrations = await synthesizeDemonstrations({
        model, template: priced.template, pools, shape: priced.shape, aggregator: priced.aggregator, random: cryptoRandom, signal: job.signal, teacherTally, timing,
        onProgress: (p) => {
          job.progress('tokens', p.stepsDone, p.stepsMax, `demonstration ${Math.min(p.demonstrationsDone + 1, p.demonstrationsTotal)} of ${p.demonstrationsTotal}`);
          this.ctx.emit('synth.progress', { runId, jobId: job.id, ...p });
        },
      });
      job.throwIfCancelled();
      (await getStepCosts(this.ctx)).record(identity.name, priced.shape.sampling ?? 'per-token', timing);
      const content = releasedContent(dataset, priced, demonstrations);
      const account = accountEpsilon(priced.plan.event, priced.plan.delta);
      const issued = await uncommittedDocument({ content, dataset, priced, epsilon: account.bounds, accountant: account.accountant, model: identity });
      const commit = await this.ledger.commit(reservationId, { outputHash: issued.releaseHash });
      const document = committedDocument(issued, { entryId: commit.id, entryHash: commit.entryHash });
      await this.runs.setLedgerEntry(runId, commit.id);
      await this.runs.finish(runId, 'succeeded', { document });
      await this.runs.setTeachers(runId, teacherTally);
      return { runId, ledgerEntryId: commit.id, teachers: teacherTally };
    } catch (error) {
      const cancelled = job.signal.aborted;
      const reason = cancelled ? 'cancelled' : publicReason(error);
      await this.runs.finish(runId, cancelled ? 'cancelled' : 'failed', { error: `${reason}; the reserved budget stays spent (the output may have been partly produced)` });
      await this.runs.setTeachers(runId, teacherTally);
      throw cancelled || !(error instanceof RemoteServerError) ? error : new Error(reason);
    }
  }

  async evaluate(runId: number, limit: number): Promise<string> {
    const run = await this.runs.get(runId);
    if (!run.document) throw new RefusalError(`run ${runId} has no released prompt to evaluate`);
    const document = run.document;
    const dataset = await this.source.dataset(run.dataset);
    return this.ctx.jobs.start('synthesis.evaluate', async (job) => {
      const template = document.certificate.parameters.template as PromptTemplate;
      const model = await modelForDataset(await (await getModelService(this.ctx)).current(), this.source, dataset, template);
      try {
        const utility = await evaluateUtility({ model, dataset, document, source: this.source, limit, job });
        await this.runs.setUtility(runId, utility);
        return utility;
      } catch (error) {
        throw error instanceof RemoteServerError ? new Error(publicReason(error)) : error;
      }
    });
  }

  /**
   * "Preview on public data" as a job: the job priced as synth.plan prices it (its calibrated
   * noise), run on the public split as if private (publicPreview.ts). Reserves and writes nothing.
   */
  async preview(request: SynthesisRequest, limit: number): Promise<string> {
    const { priced, dataset } = await this.price(request);
    const { model } = await this.generatorModel(dataset, priced);
    checkCandidates(model, request.topK);
    return this.ctx.jobs.start('synthesis.preview', async (job) => {
      try {
        return await previewOnPublic({ priced, dataset, source: this.source, model, job, limit });
      } catch (error) {
        throw error instanceof RemoteServerError ? new Error(publicReason(error)) : error;
      }
    });
  }

  /**
   * The utility-against-ε curve: the preview at each ε (previewCurve.ts). Every ε is priced
   * up front, so a setting no ε can run is refused before the job starts. Writes nothing.
   */
  async previewCurve(settings: Omit<SynthesisRequest, 'epsilon'>, epsilons: readonly number[], limit: number): Promise<string> {
    const priced = new Map<number, PricedJob>();
    let dataset: SynthesisDataset | undefined;
    for (const epsilon of epsilons) {
      const at = await this.price({ ...settings, epsilon });
      priced.set(epsilon, at.priced);
      dataset = at.dataset;
    }
    const first = priced.get(epsilons[0])!;
    const { model } = await this.generatorModel(dataset!, first);
    checkCandidates(model, settings.topK);
    return this.ctx.jobs.start('synthesis.previewCurve', async (job) => {
      try {
        return await previewCurve({ priceAt: (epsilon) => priced.get(epsilon)!, epsilons, dataset: dataset!, source: this.source, model, job, limit });
      } catch (error) {
        throw error instanceof RemoteServerError ? new Error(publicReason(error)) : error;
      }
    });
  }

  /** Verification against this data directory's ledger. */
  verify(text: string) {
    return verifyDpPrompt(text, {
      epsilonOf: (event, delta) => accountEpsilon(event, delta).bounds,
      ledger: certificateLedgerView(this.ledger, async (entryId) => (await this.runs.byLedgerEntry(entryId))?.document),
    });
  }

  get(id: number): Promise<SynthesisRunDto> {
    return this.runs.get(id);
  }
}

/**
 * K as the certificate states it must be the K the job uses: refused, before anything is
 * reserved, when the model returns fewer top tokens per request (a server's logprob cap) or
 * has a smaller vocabulary.
 */
function checkCandidates(model: LanguageModel, topK: number): void {
  const { maxTopTokens } = model.capabilities;
  if (maxTopTokens !== null && topK > maxTopTokens) throw new RefusalError(`K = ${topK} candidates, but this server returns at most ${maxTopTokens} top tokens per request: lower K to ${maxTopTokens} or less`);
  const vocabulary = model.info.vocabularySize;
  if (vocabulary !== null && topK > vocabulary) throw new RefusalError(`K = ${topK} candidates, but the model's vocabulary has ${vocabulary} tokens: lower K`);
}
