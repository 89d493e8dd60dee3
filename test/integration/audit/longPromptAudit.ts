/** The long-prompt audit both backends' tests run: a prompt far longer than a 1,024-token context, every prompt cut and counted. */
import { expect } from 'vitest';
import { callMethod } from '../../../electron/services/api';
import type { ServiceContext } from '../../../electron/services/context';

/** A brought prompt of 40 public demonstrations (≈ 4,000 bytes, about as many tokens on the tiny GGUF). */
const longPrompt = [
  'Classify each e-mail as spam or ham.',
  ...Array.from({ length: 40 }, (_, i) => `Text: meeting note ${i}: the quarterly review moves to the small room after lunch, bring the figures\nLabel: ${i % 2 ? 'spam' : 'ham'}\n`),
].join('\n\n');

/**
 * Audits the long prompt on the "mail" sample (label, repeat and inquiry attacks, 4 members) and
 * checks that it succeeds with every member scored or left out, and every scored query's
 * prompt cut, members and non-members alike. Returns the audit's id.
 */
export async function auditLongPrompt(ctx: ServiceContext): Promise<number> {
  const { jobId, auditId } = await callMethod(ctx, 'audit.start', {
    dataset: 'mail', targets: [{ kind: 'prompt', text: longPrompt, name: 'long' }], attacks: ['label', 'repeat', 'inquiry'], members: 4, replicates: 100,
  });
  const job = await ctx.jobs.wait(jobId);
  expect(job.error ?? job.status).toBe('succeeded');
  const target = (await callMethod(ctx, 'audit.get', { id: auditId })).result!.targets[0];
  expect(target.scores.map((s) => s.score)).toEqual(['label-probability', 'repeat-rouge-l', 'repeat-cosine', 'inquiry-yes']);
  for (const s of target.scores) {
    expect(s.metrics.members + (s.fit?.leftOut.members ?? 0)).toBe(4);
    expect(s.metrics.members).toBeGreaterThan(0);
    // The prompt alone is longer than the context: every scored query's prompt was cut.
    expect(s.fit).toMatchObject({ cut: { members: s.metrics.members, nonMembers: s.metrics.nonMembers } });
  }
  return auditId;
}
