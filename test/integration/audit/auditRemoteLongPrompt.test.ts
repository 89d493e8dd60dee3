/**
 * An audit on an OpenAI-compatible server without /tokenize (the test server over the
 * reference learner, a 1,024-token context) whose prompt exceeds the context runs to the end.
 * Without a tokenizer the prompts are measured by a bound no tokenizer in use exceeds (tokens ≤
 * UTF-8 bytes after NFKC, plus a margin: core/model/tokenBound.ts), the same rule for members
 * and non-members, so the server never refuses a query. Before, the prompts went out uncut and
 * the server refused them ("maximum context length is exceeded"): the audit failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSeededOnPrivatePath } from '../../../core/random/privatePathRandom';
import { seededRandom } from '../../../core/random/seededRandom';
import { callMethod } from '../../../electron/services/api';
import { getAuditService } from '../../../electron/services/audit/auditHandlers';
import { loadReferenceLearner } from '../../../electron/services/model/referenceResources';
import { workspace, type Workspace } from '../model/modelFixture';
import { startOpenAiTestServer, type TestServer } from '../model/openaiTestServer';

let ws: Workspace;
let server: TestServer;

beforeAll(async () => {
  ws = workspace('audit-remote-long');
  server = await startOpenAiTestServer(await loadReferenceLearner(), { contextLength: 1024, noTokenizer: true });
  const status = await callMethod(ws.ctx, 'model.useRemote', { baseUrl: server.baseUrl, model: 'reference' });
  expect(status.active).toMatchObject({ backend: 'openai-compatible', capabilities: { tokenize: false } });
  await callMethod(ws.ctx, 'vault.createSample', { name: 'mail' });
  await getAuditService(ws.ctx, allowSeededOnPrivatePath(seededRandom(5), 'test'));
}, 120_000);
afterAll(async () => {
  await ws?.dispose();
  await server?.close();
});

/** A brought prompt of 40 public demonstrations, far longer than the context (≈ 4,000 bytes). */
const longPrompt = [
  'Classify each e-mail as spam or ham.',
  ...Array.from({ length: 40 }, (_, i) => `Text: meeting note ${i}: the quarterly review moves to the small room after lunch, bring the figures\nLabel: ${i % 2 ? 'spam' : 'ham'}\n`),
].join('\n\n');

describe('audit prompts longer than a remote server’s context, without /tokenize', () => {
  it('cuts every prompt by the byte bound, the same way for members and non-members, and the server refuses none', async () => {
    const { jobId, auditId } = await callMethod(ws.ctx, 'audit.start', {
      dataset: 'mail', targets: [{ kind: 'prompt', text: longPrompt, name: 'long' }], attacks: ['label', 'repeat', 'inquiry'], members: 4, replicates: 100,
    });
    const job = await ws.ctx.jobs.wait(jobId);
    expect(job.error ?? job.status).toBe('succeeded');
    const target = (await callMethod(ws.ctx, 'audit.get', { id: auditId })).result!.targets[0];
    expect(target.scores.map((s) => s.score)).toEqual(['label-probability', 'repeat-rouge-l', 'repeat-cosine', 'inquiry-yes']);
    for (const s of target.scores) {
      expect(s.metrics.members + (s.fit?.leftOut.members ?? 0)).toBe(4);
      expect(s.metrics.members).toBeGreaterThan(0);
      expect(s.fit).toMatchObject({ cut: { members: s.metrics.members, nonMembers: s.metrics.nonMembers } });
    }
    // Every prompt the server was sent fits its context by its own tokenizer, with the bound's margin to spare.
    const sent = server.completionPrompts.flat().filter((p): p is string => typeof p === 'string');
    expect(sent.length).toBeGreaterThan(0);
    const reference = await loadReferenceLearner();
    for (const prompt of sent) expect((await reference.tokenize(prompt)).length).toBeLessThan(1024);
  }, 600_000);
});
