/**
 * An audit on the real llama.cpp path (the generated tiny GGUF, random weights): every
 * attack runs through the model host child process — label scores, greedy continuations,
 * embeddings, the inquiry question — and the canary audit re-runs nothing private (baseline).
 * Random weights leak nothing we can assert on; the test asserts the plumbing: scores for
 * every candidate, valid metrics, and the job stored with its results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import { callMethod } from '../../../electron/services/api';
import { getAuditService } from '../../../electron/services/audit/auditHandlers';
import { workspace, type Workspace } from '../model/modelFixture';

let ws: Workspace;

beforeAll(async () => {
  ws = workspace('audit-gguf');
  expect((await ws.load(ws.gguf('tiny.gguf'), { threads: 1 })).status).toBe('succeeded');
  await callMethod(ws.ctx, 'vault.createSample', { name: 'mail' });
  // Seeded audit: the same members and target prompt on every run. Unseeded, two long e-mails in
  // the baseline prompt sometimes exceeded the tiny model's 2,048-token context.
  await getAuditService(ws.ctx, allowSeededOnPrivatePath(seededRandom(11), 'test'));
}, 120_000);
afterAll(async () => ws?.remove());

describe('audit with llama.cpp (tiny GGUF)', () => {
  it('runs the label, repeat and inquiry attacks and the canary audit', async () => {
    const { jobId, auditId } = await callMethod(ws.ctx, 'audit.start', {
      dataset: 'mail', targets: [{ kind: 'baseline', shots: 2 }], attacks: ['label', 'repeat', 'inquiry'], members: 6, canaries: 8, replicates: 100,
    });
    const job = await ws.ctx.jobs.wait(jobId);
    expect(job.error ?? job.status).toBe('succeeded');
    const audit = await callMethod(ws.ctx, 'audit.get', { id: auditId });
    const target = audit.result!.targets[0];
    expect(audit.result!.model).not.toMatch(/reference/);
    expect(target.scores.map((s) => s.score)).toEqual(['label-probability', 'repeat-rouge-l', 'repeat-cosine', 'inquiry-yes']);
    for (const s of target.scores) {
      expect(s.metrics.members).toBe(6);
      expect(s.metrics.nonMembers).toBe(6);
      expect(s.metrics.auroc).toBeGreaterThanOrEqual(0);
      expect(s.metrics.auroc).toBeLessThanOrEqual(1);
    }
    expect(target.canary).toMatchObject({ m: 8 });
    expect(target.canary!.epsilonLower).toBeGreaterThanOrEqual(0);
  }, 600_000);
});
