/**
 * Audit target (c): private answering with a given aggregation and ε per query, set up as an
 * answering job sets up a batch (answeringService.ts): the dataset's template and task, the
 * size of the private split released as a job releases it (noisy and drawn afresh, or exact where declared public), the noise calibrated by
 * priceAnswers for one query at ε (perQuery), and the same ensemble sampling (M teachers,
 * Poisson rate q from the noisy size). Members: private records; non-members: held-out records.
 *
 * Not charged to the ledger: the answers an audit computes are DP answers that never leave
 * the machine (docs/audit.md). The accounted ε reported is the one-query batch's (the size
 * release and one answer), what a job answering that query would charge.
 */
import { poolDesign } from '../../../core/audit/membership';
import { answeringTarget } from '../../../core/audit/answeringTarget';
import { answerRequestSchema } from '../../shared/api/answering';
import type { AuditTargetSpec } from '../../shared/api/audit';
import { CANDIDATE_TEMPERATURE, answerTask, answerTemplate } from '../answering/answeringService';
import { defaultAggregation, priceAnswers } from '../answering/answerPricing';
import { RefusalError } from '../refusalError';
import { releaseDatasetSizes } from '../sizes/poolSizes';
import type { ResolvedTarget, TargetContext } from './auditTargets';

type AnsweringSpec = Extract<AuditTargetSpec, { kind: 'answering' }>;

export async function answeringAuditTarget(spec: AnsweringSpec, ctx: TargetContext, name: string): Promise<ResolvedTarget> {
  const dataset = ctx.data.dataset;
  const method = defaultAggregation(dataset, spec.aggregation);
  if (method === 'sga') throw new RefusalError('auditing semantic group aggregation is not supported yet: audit vote, embedding, keyword or ptr');
  const pool = await ctx.source.pool(dataset, undefined);
  if (pool.units === 0) throw new RefusalError(`the private split of "${dataset.name}" is empty: there is nothing to answer with`);
  // The answering defaults (template, tokens, candidates); ε may exceed the job's cap (an audit may measure ε = 1000).
  const request = { ...answerRequestSchema.parse({ dataset: dataset.name, epsilon: 1 }), aggregation: method, epsilon: spec.epsilon, perQuery: true, ensemble: spec.ensemble, shots: spec.shots, delta: spec.delta };
  // The job's size release (noisy, or exact where declared public), not charged here.
  const units = releaseDatasetSizes(dataset, new Map([['all', pool.units]]), ctx.random).sizes.get('all')!;
  const priced = priceAnswers({ request, dataset, units, queries: 1, budget: null });
  const target = answeringTarget({
    model: ctx.model, pool, template: answerTemplate(dataset, request), task: answerTask(dataset), method, ensemble: spec.ensemble, shots: spec.shots,
    q: priced.plan.q, noise: priced.parameter, ptrDelta: priced.ptrDelta, keywords: request.keywords, candidates: request.candidates,
    candidateTemperature: CANDIDATE_TEMPERATURE, maxTokens: request.maxTokens, random: ctx.random,
  });
  const candidates = poolDesign(ctx.data.privateRecords, ctx.data.heldOut, ctx.members, ctx.balance, ctx.random);
  const ratio = ctx.balance === 'balanced' ? '1:1' : '1:4';
  return {
    kind: 'answering',
    name,
    accountedEpsilon: priced.plan.epsilon.upper,
    delta: priced.plan.delta,
    runId: null,
    design: `each candidate answered as one query by ${method} (M = ${spec.ensemble}, ${spec.shots} shots, q = ${priced.plan.q.toFixed(3)}); members: private records; non-members: held-out records (${ratio})`,
    groups: [{ target, candidates }],
  };
}
