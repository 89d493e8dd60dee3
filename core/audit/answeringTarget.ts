/**
 * Private answering as an audit target (issue 16, target c): every attack query is answered
 * the way an answering job answers a query (core/icl/answering/answerQuery.ts, DP-ICL of Wu,
 * Panda, Wang & Mittal, ICLR 2024) — a fresh Poisson(q) sample of the whole private split,
 * M teachers, one noisy aggregate — and the attacker sees only what a job releases:
 *
 * - vote (classification): the released noisy histogram. The label attack's score is its
 *   share for the candidate's true label, max(h_y, 0) / Σ max(h, 0) (Duan et al.'s label
 *   probability with the released vote confidence in place of the model's probability);
 * - embedding, keyword, ptr (generation): the released answer to the candidate's first words,
 *   for the repeat attack.
 *
 * A member is a record of the private split (it can be sampled into a teacher); a non-member
 * is a held-out record (never sampled). The answers never leave the machine and nothing is
 * charged: the caller records no ledger event (docs/audit.md).
 */
import type { AnswerSettings } from '../icl/answering/answerQuery';
import { answerQuery } from '../icl/answering/answerQuery';
import { requirePrivateRandom } from '../random/privatePathRandom';
import type { AuditTarget } from './target';

export type AnsweringTargetSettings = Omit<AnswerSettings, 'onTeacher' | 'signal'>;

/** Log-shares of a released vote histogram (negative noisy counts clipped to 0; all zero → uniform). */
export function voteLogShares(histogram: readonly number[]): number[] {
  return histogram.map((h) => Math.log(Math.max(h, 0)));
}

export function answeringTarget(settings: AnsweringTargetSettings): AuditTarget {
  requirePrivateRandom(settings.random, 'the answering audit target');
  if (settings.task.kind === 'classification') {
    const labels = settings.task.labels;
    return {
      classify: async (text, asked, signal) => {
        if (asked.length !== labels.length || asked.some((l, i) => l !== labels[i])) throw new Error('the answering target votes over its dataset’s public label set');
        const { result } = await answerQuery({ ...settings, signal }, text);
        return voteLogShares(result.histogram!);
      },
    };
  }
  return {
    complete: async (start, maxTokens, signal) => (await answerQuery({ ...settings, maxTokens, signal }, start)).result.answer,
  };
}
