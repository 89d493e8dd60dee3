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
import { getStepCosts } from './stepCosts';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import type { SynthesisRequest, SynthesisRunDto } from '../../shared/api/synthesis';
import type { ServiceContext } from '../context';
import { newJobId, type JobContext } from '../jobs/jobManager';
import type { LedgerService } from '../ledger/ledgerService';
import { getModelService } from '../model/modelHandlers';
import { committedDocument, jobParameters, releasedContent, uncommittedDocument, type ModelIdentity } from './certificate';
import { RunStore } from './runStore';
import { privacyUnitCount } from '../ledger/datasets';
import { RemoteServerError } from '../model/openai/openaiClient';
import { priceSynthesis, type BudgetState, type PricedJob } from './synthesisPricing';
import type { SynthesisDataset, SynthesisSource } from './synthesisSource';
import { evaluateUtility } from './utilityCheck';
import { RefusalError } from '../refusalError';

export class SynthesisService {
  constructor(
    private readonly ctx: ServiceContext,
    readonly runs: RunStore,
    private readonly ledger: LedgerService,
    private readonly source: SynthesisSource,
  ) {}

  async price(request: SynthesisRequest): Promise<{ priced: PricedJob; dataset: SynthesisDataset }> {
    const { dataset, poolUnits } = await this.pools(request.dataset);
    // N of the whole private split, as the planner and the ledger count it (δ default 1/(10·N)).
    const units = (await privacyUnitCount(this.ledger.db, dataset.id)) ?? 0;
    return { priced: priceSynthesis(request, dataset, poolUnits, await this.budgetState(dataset), units), dataset };
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
  async budgetState(dataset: SynthesisDataset): Promise<BudgetState | null> {
    const budget = await this.ledger.budget(dataset.id);
    if (!budget) return null;
    const spent = (await this.ledger.entries(dataset.id)).flatMap((e) => (e.type === 'reserve' && e.event ? [e.event] : []));
    return { cap: budget.epsilon, delta: budget.delta, spent };
  }

  /** Reserves the job's event (or throws, writing nothing) and starts the job. */
  async start(request: SynthesisRequest): Promise<{ jobId: string; runId: number }> {
    const { priced, dataset } = await this.price(request);
    const generator = await this.generatorModel(); // before reserving: a missing model charges nothing
    checkCandidates(generator.model, request.topK);
    const jobId = newJobId();
    const reservation = await this.ledger.reserve(dataset.id, priced.plan.event, {
      purpose: `DP synthetic prompt: ${request.shots} shots, ${request.method}`,
      parameters: { method: request.method, ...jobParameters(request), epsilon: request.epsilon, delta: priced.plan.delta },
      jobId,
      privacyUnit: dataset.privacyUnit,
    });
    const runId = await this.runs.create(request, jobId, priced.plan.delta);
    await this.runs.setLedgerEntry(runId, reservation.id);
    this.ctx.jobs.start('synthesis', (job) => this.generate(job, runId, reservation.id, priced, dataset, generator), jobId);
    return { jobId, runId };
  }

  /**
   * The model a job generates with, and its identity for the certificate, taken together
   * before the job starts: the analyst may switch backends while it runs, and the job keeps
   * this model.
   */
  private async generatorModel(): Promise<{ model: LanguageModel; identity: ModelIdentity }> {
    const models = await getModelService(this.ctx);
    const model = await models.current();
    const status = await models.status();
    if (status.active.backend !== model.info.backend || status.active.name !== model.info.name) throw new RefusalError('the model changed while the job was starting: start it again');
    return { model, identity: { backend: model.info.backend, name: model.info.name, sha256: status.gguf?.sha256 ?? null } };
  }

  private async generate(job: JobContext, runId: number, reservationId: number, priced: PricedJob, dataset: SynthesisDataset, { model, identity }: { model: LanguageModel; identity: ModelIdentity }) {
    try {
      const pools = await Promise.all(priced.pools.map(async (plan) => ({ plan, pool: await this.source.pool(dataset, plan.label) })));
      const timing: StepTiming = { modelMs: 0, mechanismMs: 0 };
      const demonstrations = await synthesizeDemonstrations({
        model, template: priced.template, pools, shape: priced.shape, aggregator: priced.aggregator, random: cryptoRandom, signal: job.signal, timing,
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
      return { runId, ledgerEntryId: commit.id };
    } catch (error) {
      const cancelled = job.signal.aborted;
      const reason = cancelled ? 'cancelled' : publicReason(error);
      await this.runs.finish(runId, cancelled ? 'cancelled' : 'failed', { error: `${reason}; the reserved budget stays spent (the output may have been partly produced)` });
      throw cancelled || !(error instanceof RemoteServerError) ? error : new Error(reason);
    }
  }

  async evaluate(runId: number, limit: number): Promise<string> {
    const run = await this.runs.get(runId);
    if (!run.document) throw new RefusalError(`run ${runId} has no released prompt to evaluate`);
    const document = run.document;
    const dataset = await this.source.dataset(run.dataset);
    return this.ctx.jobs.start('synthesis.evaluate', async (job) => {
      const model = await (await getModelService(this.ctx)).current();
      try {
        const utility = await evaluateUtility({ model, dataset, document, source: this.source, limit, job });
        await this.runs.setUtility(runId, utility);
        return utility;
      } catch (error) {
        throw error instanceof RemoteServerError ? new Error(publicReason(error)) : error;
      }
    });
  }

  /** Verification against this data directory's ledger. */
  verify(text: string) {
    return verifyDpPrompt(text, {
      epsilonOf: (event, delta) => accountEpsilon(event, delta).bounds,
      ledger: {
        commit: async (entryId) => {
          const commit = await this.ledger.entry(entryId);
          if (!commit || commit.type !== 'commit' || commit.reservationId === null) return null;
          const reservation = await this.ledger.entry(commit.reservationId);
          const report = await this.ledger.verify(commit.datasetId);
          return {
            entryHash: commit.entryHash,
            outputHash: commit.outputHash,
            eventJson: reservation?.eventJson ?? '',
            parameters: reservation ? (JSON.parse(reservation.parametersJson) as Record<string, unknown>) : {},
            chainIntact: report.ok,
            issued: (await this.runs.byLedgerEntry(entryId))?.document ?? undefined,
          };
        },
      },
    });
  }

  get(id: number): Promise<SynthesisRunDto> {
    return this.runs.get(id);
  }
}

/**
 * Why a job failed, as stored in the run and the job record. A remote server's own
 * explanation may quote the prompt it was sent (teacher prompts hold private records; the
 * utility check's, held-out ones), so only its HTTP status is kept.
 */
function publicReason(error: unknown): string {
  if (error instanceof RemoteServerError && error.status > 0) return `the remote model server answered HTTP ${error.status} (its explanation is not kept: it may quote the private prompt)`;
  return error instanceof Error ? error.message : String(error);
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
