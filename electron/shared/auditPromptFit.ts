/**
 * The sentence an audit's report and the Audit page show when prompts were cut from the left
 * to fit the model's context (core/audit/promptFit.ts), shared by both.
 */
import type { AuditTargetResult } from './api/audit';

/** Per attack, how many queries had their prompt cut to fit the model's context and how many were left out (nothing when none). */
export function promptFitNote(t: AuditTargetResult): string {
  const attacks = [...new Map(t.scores.flatMap((s) => (s.fit ? [[s.attack, s.fit] as const] : []))).entries()];
  const cut = attacks.filter(([, f]) => f.cut.members + f.cut.nonMembers > 0).map(([a, f]) => `${a} ${f.cut.members} / ${f.cut.nonMembers}`);
  const out = attacks.filter(([, f]) => f.leftOut.members + f.leftOut.nonMembers > 0).map(([a, f]) => `${a} ${f.leftOut.members} / ${f.leftOut.nonMembers}`);
  const canary = t.canary?.promptsCut ? `; canaries: ${t.canary.promptsCut} of ${t.canary.m}` : '';
  return [
    cut.length || canary ? `Queries whose prompt was cut from the left to fit the model’s context (oldest paragraphs first; the query itself is never cut), members / non-members: ${cut.join(', ') || 'none'}${canary}.` : '',
    out.length ? `Left out because the query alone exceeds the context, members / non-members: ${out.join(', ')}.` : '',
  ].filter(Boolean).join(' ');
}
