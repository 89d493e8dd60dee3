/**
 * An audit on an OpenAI-compatible server without /tokenize (the test server over the
 * reference learner, a 1,024-token context) whose prompt exceeds the context runs to the end.
 * Without a tokenizer the prompts are measured by a bound no tokenizer in use exceeds (tokens ≤
 * UTF-8 bytes, raw or in any normal form, plus a margin: core/model/tokenBound.ts), the same rule for members
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
import { auditLongPrompt } from './longPromptAudit';

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
  await ws?.remove();
  await server?.close();
});

describe('audit prompts longer than a remote server’s context, without /tokenize', () => {
  it('cuts every prompt by the byte bound, the same way for members and non-members, and the server refuses none', async () => {
    await auditLongPrompt(ws.ctx);
    // Every prompt the server was sent fits its context by its own tokenizer, with the bound's margin to spare.
    const sent = server.completionPrompts.flat().filter((p): p is string => typeof p === 'string');
    expect(sent.length).toBeGreaterThan(0);
    const reference = await loadReferenceLearner();
    for (const prompt of sent) expect((await reference.tokenize(prompt)).length).toBeLessThan(1024);
  }, 600_000);
});
