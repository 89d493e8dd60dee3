/**
 * Audit jobs: resolve the targets (refused before anything starts when one cannot be
 * audited), then as a job with progress and cancel: the attacks on every target, and the
 * one-run canary audit where the mechanism can be re-run; store the results.
 *
 * Not charged to the ledger: an audit is a local compliance measurement. It reads private
 * records and its results are computed from them, so they stay in this data directory; an
 * exported report leaves the machine only by the analyst's choice (docs/audit.md). No
 * record text is stored in the results or written to logs and errors.
 */
import { ATTACK_SCORES, type AttackName } from '../../../core/audit/attacks';
import { makeCanaries } from '../../../core/audit/canaries';
import { applicableAttacks, runAttacks, runCanaryAudit } from '../../../core/audit/runAudit';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import { requirePrivateRandom } from '../../../core/random/privatePathRandom';
import type { RandomSource } from '../../../core/random/randomSource';
import type { AuditRequest, AuditResult, AuditTargetResult } from '../../shared/api/audit';
import type { ServiceContext } from '../context';
import type { JobContext } from '../jobs/jobManager';
import { getModelService } from '../model/modelHandlers';
import type { Database } from '../db/database';
import type { SynthesisService } from '../synthesis/synthesisService';
import type { SynthesisDataset, SynthesisSource } from '../synthesis/synthesisSource';
import type { AuditStore } from './auditStore';
import { loadAuditData, resolveTarget, type ResolvedTarget } from './auditTargets';
import { baselineMechanism, synthesisMechanism } from './canaryMechanism';
import { publicReason } from '../model/jobModel';
import { RemoteServerError } from '../model/openai/openaiClient';

export class AuditService {
  constructor(
    private readonly ctx: ServiceContext,
    readonly store: AuditStore,
    private readonly db: Database,
    private readonly synthesis: SynthesisService,
    private readonly source: SynthesisSource,
    /** Every draw of the audit: members, bootstrap, canaries, the mechanisms it re-runs (the CSPRNG; a test may opt a seeded one in). */
    private readonly random: RandomSource = cryptoRandom,
  ) {}

  async start(request: AuditRequest): Promise<{ jobId: string; auditId: number }> {
    // It samples private records and re-runs DP mechanisms on them.
    requirePrivateRandom(this.random, 'the audit');
    const dataset = await this.source.dataset(request.dataset);
    const model = await (await getModelService(this.ctx)).current();
    const data = await loadAuditData(this.db, dataset);
    const context = { data, model, synthesis: this.synthesis, source: this.source, members: request.members, balance: request.balance, random: this.random };
    const targets: ResolvedTarget[] = [];
    for (const spec of request.targets) targets.push(await resolveTarget(spec, context));
    const { jobId, prepared: auditId } = await this.ctx.jobs.launch(
      'audit',
      (jobId) => this.store.create(request, jobId),
      (job, auditId) => this.run(job, auditId, request, targets, model, dataset),
    );
    return { jobId, auditId };
  }

  private async run(job: JobContext, auditId: number, request: AuditRequest, targets: ResolvedTarget[], model: LanguageModel, dataset: SynthesisDataset) {
    try {
      const results: AuditTargetResult[] = [];
      for (const [i, target] of targets.entries()) {
        const stage = `target ${i + 1} of ${targets.length}`;
        results.push(await this.audit(job, stage, request, target, model, dataset));
      }
      const result: AuditResult = { model: model.info.name, targets: results };
      await this.store.finish(auditId, 'succeeded', { result });
      return { auditId };
    } catch (error) {
      const cancelled = job.signal.aborted;
      // A remote server's own explanation may quote the prompt (private records): only its status is kept.
      const reason = cancelled ? 'cancelled' : publicReason(error);
      await this.store.finish(auditId, cancelled ? 'cancelled' : 'failed', { error: reason });
      throw cancelled || !(error instanceof RemoteServerError) ? error : new Error(reason);
    }
  }

  private async audit(job: JobContext, stage: string, request: AuditRequest, target: ResolvedTarget, model: LanguageModel, dataset: SynthesisDataset): Promise<AuditTargetResult> {
    const labels = dataset.task === 'classification' ? dataset.labels : [];
    const attacks = applicableAttacks(request.attacks, target.groups, labels);
    const skipped = request.attacks.filter((a) => !attacks.includes(a)).map((attack) => ({ attack, reason: skipReason(attack) }));
    const scores = await runAttacks(
      { groups: target.groups, attacks, model, labels, signal: job.signal, onProgress: (done, total) => job.progress(`${stage}: attacks`, done, total) },
      this.random,
      { replicates: request.replicates, level: request.level },
    );
    const { canary, canarySkipped } = await this.canaryAudit(job, stage, request, target, model, attacks, labels, dataset);
    return { kind: target.kind, name: target.name, accountedEpsilon: target.accountedEpsilon, delta: target.delta, design: target.design, scores, skipped, canary, canarySkipped };
  }

  private async canaryAudit(job: JobContext, stage: string, request: AuditRequest, target: ResolvedTarget, model: LanguageModel, attacks: AttackName[], labels: string[], dataset: SynthesisDataset) {
    if (request.canaries === 0) return { canary: null, canarySkipped: 'no canaries requested' };
    if (target.kind === 'answering') return { canary: null, canarySkipped: 'a canary audit of private answering is not in this version (audit its members and non-members instead)' };
    if (target.kind !== 'baseline' && target.runId === null) return { canary: null, canarySkipped: 'a canary audit re-runs the mechanism: audit the stored run (run:N) or the baseline' };
    const attack = attacks[0];
    if (!attack) return { canary: null, canarySkipped: 'no attack applies' };
    const canaries = makeCanaries(request.canaries, labels, this.random);
    const delta = target.delta ?? 0;
    const mechanism =
      target.runId === null
        ? baselineMechanism(model, dataset)
        : synthesisMechanism(model, dataset, this.source, await this.synthesis.runs.request(target.runId), delta, job.signal, this.random);
    job.progress(`${stage}: canary run`, 0, request.canaries, 'running the mechanism on the working copy');
    const result = await runCanaryAudit({
      canaries, mechanism, attack, model, labels, delta, signal: job.signal,
      onProgress: (done, total) => job.progress(`${stage}: canaries`, done, total),
    });
    return {
      canary: {
        score: result.score,
        m: result.counts.m,
        k: result.k,
        guesses: result.counts.r,
        correct: result.counts.v,
        epsilonLower: result.bound.epsilon,
        confidence: result.bound.confidence,
        delta,
        mechanism: target.runId === null ? 'included canaries written into one plain prompt (non-private)' : `synthesis run ${target.runId} re-run on the working copy`,
        promptsCut: result.promptsCut,
      },
      canarySkipped: null,
    };
  }
}

function skipReason(attack: AttackName): string {
  if (attack === 'label') return 'needs a classification dataset with two or more labels';
  return `the target cannot answer the ${ATTACK_SCORES[attack].join('/')} queries`;
}
