/**
 * Synthesis jobs: refuse what needs no size → release and charge the pool sizes as their own
 * ledger entry (sizes/poolSizes.ts) → price from them → reserve the job's event (refused over
 * budget, nothing more written; the size entry stays) → generate as a job with live progress →
 * commit with the release hash of the document (content and certificate, certificate.ts) →
 * store the certified document. A cancelled, failed or crashed job keeps its reservation
 * charged. The job never logs or stores private text: only the synthetic demonstrations (a DP
 * release) leave it.
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
import { priceSynthesis, synthesisFamily, templateFor, type PricedJob } from './synthesisPricing';
import { chargeSizeRelease, refuseAboveCap, sizeParameters, type SizeLedgerEntry } from '../sizes/poolSizes';
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

  /** A preview (synth.plan): priced with the exact pool sizes, shown to the analyst only (never released). */
  async price(request: SynthesisRequest): Promise<{ priced: PricedJob; dataset: SynthesisDataset }> {
    const { dataset, poolUnits } = await this.pools(request.dataset);
    const budget = await this.budgetState(dataset);
    return { priced: priceSynthesis(request, dataset, poolUnits, budget, await this.units(dataset)), dataset };
  }

  /** N of the whole private split, as the planner and the ledger count it (δ default: defaultDelta(N)). */
  private async units(dataset: SynthesisDataset): Promise<number> {
    return (await privacyUnitCount(this.ledger.db, dataset.id)) ?? 0;
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

  /**
   * Refuses what needs no size (the labels, ε not above the size release's, ε alone above the
   * cap, the model, K), then releases and charges the pool sizes as their own ledger entry
   * (noisy; exact and uncharged where declared public), prices the job from them, reserves the
   * job's own event (or throws, writing nothing more) and starts the job. Nothing before the
   * size release reads a pool's size beyond its being empty: a job refused after it leaves the
   * size entry charged, since its price and refusal depend on the draw (ARCHITECTURE §4).
   */
  async start(request: SynthesisRequest): Promise<{ jobId: string; runId: number }> {
    const { dataset, poolUnits } = await this.pools(request.dataset);
    const { pools } = synthesisFamily(request, dataset, poolUnits);
    refuseAboveCap(request, await this.budgetState(dataset));
    const generator = await this.generatorModel(dataset, templateFor(dataset, request)); // a missing model charges nothing
    checkCandidates(generator.model, request.topK);
    const used = new Map(pools.map((p) => [p.label, poolUnits.get(p.label)!]));
    const sized = await chargeSizeRelease(this.ledger, dataset, used, `noisy pool sizes for a DP synthetic prompt (${pools.length} ${pools.length === 1 ? 'pool' : 'pools'})`);
    const priced = priceSynthesis(request, dataset, sized.sizes, await this.budgetState(dataset), await this.units(dataset), true);
    const charged: ChargedJob = { priced, sizeLedger: sized.ledger };
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
      (job, { runId, reservationId }) => this.generate(job, runId, reservationId, charged, dataset, generator),
    );
    const { runId } = prepared;
    return { jobId, runId };
  }

  /** The job's model (jobModel), as the dataset's own reference learner when it is the built-in one. */
  private async generatorModel(dataset: SynthesisDataset, template: PromptTemplate): Promise<{ model: LanguageModel; identity: ModelIdentity }> {
    const job = await jobModel(this.ctx);
    const model = await modelForDataset(job.model, this.source, dataset, template);
    return { model, identity: { ...job.identity, backend: model.info.backend, name: model.info.name } };
  }

  private async generate(job: JobContext, runId: number, reservationId: number, { priced, sizeLedger }: ChargedJob, dataset: SynthesisDataset, { model, identity }: { model: LanguageModel; identity: ModelIdentity }) {
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
      const issued = await uncommittedDocument({ content, dataset, priced, sizeLedger, model: identity });
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
    const { model } = await this.generatorModel(dataset, priced.template);
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
    // Nothing read here depends on ε: the pools, the budget and N are read once for every point.
    const { dataset, poolUnits } = await this.pools(settings.dataset);
    const budget = await this.budgetState(dataset);
    const units = await this.units(dataset);
    const priced = new Map<number, PricedJob>(epsilons.map((epsilon) => [epsilon, priceSynthesis({ ...settings, epsilon }, dataset, poolUnits, budget, units)]));
    const first = priced.get(epsilons[0])!;
    const { model } = await this.generatorModel(dataset, first.template);
    checkCandidates(model, settings.topK);
    return this.ctx.jobs.start('synthesis.previewCurve', async (job) => {
      try {
        return await previewCurve({ priceAt: (epsilon) => priced.get(epsilon)!, epsilons, dataset, source: this.source, model, job, limit });
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

/** A job priced from the sizes it released, and the ledger entry that charged them (null: declared public). */
interface ChargedJob {
  priced: PricedJob;
  sizeLedger: SizeLedgerEntry;
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
