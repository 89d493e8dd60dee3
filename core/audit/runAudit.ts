/**
 * Runs the chosen attacks on every candidate of every target group (a group = one target
 * and the candidates audited against it) and collects one score series per score name,
 * then the one-run canary audit: the mechanism runs once on a working copy holding the
 * included canaries, and every canary is scored against what it produced.
 *
 * A prompt too long for the model's context is cut from the left for the query at hand
 * (promptFit.ts); the results count, per attack and arm, the queries whose prompt was cut and
 * those left out because the query alone does not fit.
 */
import type { LanguageModel } from '../model/languageModel';
import type { RandomSource } from '../random/randomSource';
import { ATTACK_SCORES, attackApplies, attackScores, type AttackContext, type AttackName, type ScoreName } from './attacks';
import { scoreMetrics, type ScoreMetrics } from './auditMetrics';
import { canaryBound, type Canary, type CanaryGuess } from './canaries';
import type { AuditCandidate } from './membership';
import { QueryTooLongError } from './promptFit';
import type { ScoredCandidate } from './roc';
import type { AuditTarget } from './target';

export interface AuditGroup {
  target: AuditTarget;
  candidates: readonly AuditCandidate[];
}

export interface AttackRequest {
  groups: readonly AuditGroup[];
  attacks: readonly AttackName[];
  model: LanguageModel;
  labels: readonly string[];
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface ArmCounts {
  members: number;
  nonMembers: number;
}

/** Per attack: queries whose prompt was cut from the left, and candidates left out (the query alone exceeds the context). */
export interface PromptFitCounts {
  cut: ArmCounts;
  leftOut: ArmCounts;
}

export interface ScoreResult {
  attack: AttackName;
  score: ScoreName;
  metrics: ScoreMetrics;
  fit: PromptFitCounts;
}

const noCounts = (): PromptFitCounts => ({ cut: { members: 0, nonMembers: 0 }, leftOut: { members: 0, nonMembers: 0 } });
const arm = (member: boolean): keyof ArmCounts => (member ? 'members' : 'nonMembers');

/** One candidate's scores, counting a cut prompt or a query left out in `fit`. */
async function fittedScores(attack: AttackName, candidate: AuditCandidate, ctx: AttackContext, fit: PromptFitCounts) {
  const before = ctx.target.cuts?.() ?? 0;
  try {
    const scores = await attackScores(attack, candidate, ctx);
    if ((ctx.target.cuts?.() ?? 0) > before) fit.cut[arm(candidate.member)]++;
    return scores;
  } catch (error) {
    if (!(error instanceof QueryTooLongError)) throw error;
    fit.leftOut[arm(candidate.member)]++;
    return {};
  }
}

/** The attacks that apply to every group (the others are reported as skipped). */
export function applicableAttacks(attacks: readonly AttackName[], groups: readonly AuditGroup[], labels: readonly string[]): AttackName[] {
  return attacks.filter((a) => groups.every((g) => attackApplies(a, { target: g.target, labels })));
}

export async function runAttacks(req: AttackRequest, random: RandomSource, interval = { replicates: 1000, level: 0.95 }): Promise<ScoreResult[]> {
  const series = new Map<ScoreName, ScoredCandidate[]>();
  const fits = new Map(req.attacks.map((a) => [a, noCounts()]));
  const total = req.groups.reduce((s, g) => s + g.candidates.length, 0) * req.attacks.length;
  let done = 0;
  for (const attack of req.attacks) {
    for (const { target, candidates } of req.groups) {
      for (const candidate of candidates) {
        req.signal?.throwIfAborted();
        const scores = await fittedScores(attack, candidate, { target, model: req.model, labels: req.labels, signal: req.signal }, fits.get(attack)!);
        for (const [name, score] of Object.entries(scores) as [ScoreName, number][]) {
          const points = series.get(name) ?? [];
          points.push({ score, member: candidate.member });
          series.set(name, points);
        }
        req.onProgress?.(++done, total);
      }
    }
  }
  return req.attacks.flatMap((attack) =>
    ATTACK_SCORES[attack].flatMap((score) => {
      const scored = series.get(score) ?? [];
      const fit = fits.get(attack)!;
      if (fit.leftOut.members + fit.leftOut.nonMembers === 0 && scored.length === 0) return [];
      for (const member of [true, false]) {
        if (fit.leftOut[arm(member)] > 0 && !scored.some((c) => c.member === member)) throw new QueryTooLongError(req.model.info.contextLength ?? 0, `the ${attack} attack: every ${member ? 'member' : 'non-member'}'s query`);
      }
      return [{ attack, score, metrics: scoreMetrics(scored, random, interval.replicates, interval.level), fit }];
    }),
  );
}

export interface CanaryRequest {
  canaries: readonly Canary[];
  /** Runs the mechanism once on the working copy holding `included` and returns what it produced. */
  mechanism: (included: readonly Canary[]) => Promise<AuditTarget>;
  attack: AttackName;
  model: LanguageModel;
  labels: readonly string[];
  /** δ of the hypothesis tested (the mechanism's accounted δ; 0 for a non-private one). */
  delta: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface CanaryResult extends CanaryGuess {
  score: ScoreName;
  /** Canaries whose query had the prompt cut from the left to fit the context. */
  promptsCut: number;
}

export async function runCanaryAudit(req: CanaryRequest): Promise<CanaryResult> {
  const target = await req.mechanism(req.canaries.filter((c) => c.included));
  const score = ATTACK_SCORES[req.attack][0];
  const scores: number[] = [];
  for (const [i, canary] of req.canaries.entries()) {
    req.signal?.throwIfAborted();
    scores.push((await attackScores(req.attack, canary, { target, model: req.model, labels: req.labels, signal: req.signal }))[score]!);
    req.onProgress?.(i + 1, req.canaries.length);
  }
  return { score, promptsCut: target.cuts?.() ?? 0, ...canaryBound(scores, req.canaries.map((c) => c.included), req.delta) };
}
