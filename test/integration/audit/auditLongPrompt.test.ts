/**
 * An audit whose prompts exceed the model's context (the tiny GGUF loaded with a 1,024-token
 * context) runs to the end: each prompt is cut from the left by whole paragraphs (oldest
 * demonstrations first), the query is never cut, and the report counts the cut prompts of
 * members and non-members. Before, the job failed with "the prompt has N tokens".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import { callMethod } from '../../../electron/services/api';
import { getAuditService } from '../../../electron/services/audit/auditHandlers';
import { workspace, type Workspace } from '../model/modelFixture';

let ws: Workspace;

beforeAll(async () => {
  ws = workspace('audit-long');
  expect((await ws.load(ws.gguf('tiny.gguf'), { threads: 1, contextSize: 1024 })).status).toBe('succeeded');
  await callMethod(ws.ctx, 'vault.createSample', { name: 'mail' });
  await getAuditService(ws.ctx, allowSeededOnPrivatePath(seededRandom(5), 'test'));
}, 120_000);
afterAll(async () => ws?.dispose());

/** A brought prompt of 40 public demonstrations, far longer than the context (≈ 4,000 tokens). */
const longPrompt = [
  'Classify each e-mail as spam or ham.',
  ...Array.from({ length: 40 }, (_, i) => `Text: meeting note ${i}: the quarterly review moves to the small room after lunch, bring the figures\nLabel: ${i % 2 ? 'spam' : 'ham'}\n`),
].join('\n\n');

describe('audit prompts longer than the context (tiny GGUF)', () => {
  it('cuts every prompt from the left, the same way for members and non-members, and reports the count', async () => {
    const { jobId, auditId } = await callMethod(ws.ctx, 'audit.start', {
      dataset: 'mail', targets: [{ kind: 'prompt', text: longPrompt, name: 'long' }], attacks: ['label', 'repeat', 'inquiry'], members: 4, replicates: 100,
    });
    const job = await ws.ctx.jobs.wait(jobId);
    expect(job.error ?? job.status).toBe('succeeded');
    const target = (await callMethod(ws.ctx, 'audit.get', { id: auditId })).result!.targets[0];
    expect(target.scores.map((s) => s.score)).toEqual(['label-probability', 'repeat-rouge-l', 'repeat-cosine', 'inquiry-yes']);
    for (const s of target.scores) {
      expect(s.metrics.members + (s.fit?.leftOut.members ?? 0)).toBe(4);
      // The prompt alone is longer than the context: every scored query's prompt was cut.
      expect(s.fit).toMatchObject({ cut: { members: s.metrics.members, nonMembers: s.metrics.nonMembers } });
    }
    const { content } = await callMethod(ws.ctx, 'audit.export', { id: auditId, format: 'html' });
    expect(content).toMatch(/cut from the left to fit the model’s context/);
  }, 600_000);
});
